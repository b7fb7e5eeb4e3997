package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Migration of compressed, encrypted and overflowed items without the keys. */
class MigrateStoredFormsTest {
  static final TableSpec SPEC =
      TableSpec.builder("records", KeySchema.of("owner", STRING, "n", NUMBER))
          .index("byKind", List.of("kind"), List.of("n"))
          .compressed("notes")
          .encrypted("secret")
          .compressed("scan")
          .encrypted("scan")
          .build();

  static Codecs codecs;
  @TempDir Path dir;

  @BeforeAll
  static void keys() throws Exception {
    AeadConfig.register();
    codecs =
        Codecs.builder()
            .keys(
                KeyProvider.ofKeyset(KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM)))
            .build();
  }

  static List<Item> items(int n) {
    Random random = new Random(7);
    List<Item> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Item.Builder b =
          Item.builder()
              .put("owner", "o" + (i % 5))
              .put("n", i)
              .put("kind", i % 2 == 0 ? "a" : "b")
              .put("notes", "lorem ipsum dolor ".repeat(20 + i % 7))
              .put("secret", "s-" + i);
      if (i % 40 == 0) {
        byte[] scan = new byte[450_000 + i];
        random.nextBytes(scan);
        b.put("scan", scan);
      }
      out.add(b.build());
    }
    return out;
  }

  @Test
  void copiesEnvelopesAndBlobsAcrossNamespacesWithoutKeys() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    MemoryBlobStore sourceBlobs = new MemoryBlobStore();
    Stowage source =
        Stowage.builder(sourceDriver)
            .blobStore(sourceBlobs)
            .codecs(codecs)
            .namespace("prod")
            .build();
    Table s = source.ensureTable(SPEC);
    List<Item> originals = items(200);
    originals.forEach(s::put);
    assertThat(sourceBlobs.list("prod/records/").count()).isEqualTo(5);

    MemoryDriver targetDriver = MemoryDriver.create();
    MemoryBlobStore targetBlobs = new MemoryBlobStore();
    // the migrator gets drivers and blob stores only: no codecs, no keys
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, sourceBlobs, "prod")
            .target(targetDriver, targetBlobs, "staging")
            .pageSize(30)
            .checkpoint(dir.resolve("cp"))
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(200);
    assertThat(r.progress().blobsCopied()).isEqualTo(5);
    assertThat(r.misfits()).isEmpty();
    assertThat(m.verify().ok()).isTrue();
    // blobs moved to the target's prefix, pointers rewritten to name them
    assertThat(targetBlobs.list("staging/records/").count()).isEqualTo(5);
    assertThat(targetBlobs.list("prod/").count()).isZero();

    Table t =
        Stowage.builder(targetDriver)
            .blobStore(targetBlobs)
            .codecs(codecs)
            .namespace("staging")
            .build()
            .ensureTable(SPEC);
    for (Item original : originals) {
      assertThat(t.get(SPEC.keySchema().keyOf(original))).contains(original);
    }
    // deleting a copied overflowed item deletes the target's blob (it lies under the target prefix)
    t.delete(SPEC.keySchema().keyOf(originals.get(0)));
    assertThat(targetBlobs.list("staging/records/").count()).isEqualTo(4);
    assertThat(sourceBlobs.list("prod/records/").count()).isEqualTo(5);
  }

  @Test
  void sameNamespaceKeepsBlobKeysAndPointers() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    MemoryBlobStore sourceBlobs = new MemoryBlobStore();
    Table s =
        Stowage.builder(sourceDriver)
            .blobStore(sourceBlobs)
            .codecs(codecs)
            .build()
            .ensureTable(SPEC);
    List<Item> originals = items(81);
    s.batchPut(originals);
    MemoryDriver targetDriver =
        MemoryDriver.builder().limits(dev.stowage.memory.MemoryLimits.datastore()).build();
    MemoryBlobStore targetBlobs = new MemoryBlobStore();
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, sourceBlobs, "")
            .target(targetDriver, targetBlobs, "")
            .build();
    m.run();
    assertThat(m.verify().ok()).isTrue();
    assertThat(targetBlobs.list("").map(b -> b.key()).sorted().toList())
        .isEqualTo(sourceBlobs.list("").map(b -> b.key()).sorted().toList());
    Table t =
        Stowage.builder(targetDriver)
            .blobStore(targetBlobs)
            .codecs(codecs)
            .build()
            .ensureTable(SPEC);
    assertThat(t.batchGet(originals.stream().map(SPEC.keySchema()::keyOf).toList()).values())
        .containsExactlyInAnyOrderElementsOf(originals);
  }

  @Test
  void itemsThatFitTheSourceButNotTheTargetOverflowAgainOnTheTarget() {
    // DynamoDB-like source (400 KB items, no per-attribute limit), Azure-like target (64 KiB per
    // attribute, 252 attributes): a 300 KB attribute fits the source inline but not the target.
    MemoryDriver sourceDriver = MemoryDriver.create();
    MemoryBlobStore sourceBlobs = new MemoryBlobStore();
    Table s =
        Stowage.builder(sourceDriver)
            .blobStore(sourceBlobs)
            .codecs(codecs)
            .build()
            .ensureTable(SPEC);
    Random random = new Random(11);
    List<Item> originals = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      byte[] scan = new byte[i % 3 == 0 ? 300_000 : 500_000];
      random.nextBytes(scan);
      originals.add(
          Item.builder()
              .put("owner", "o")
              .put("n", i)
              .put("kind", "a")
              .put("secret", "s-" + i)
              .put("scan", scan)
              .build());
    }
    originals.forEach(s::put);
    assertThat(sourceBlobs.size()).isEqualTo(8); // the 300 KB ones stayed inline on the source

    MemoryDriver targetDriver =
        MemoryDriver.builder().limits(dev.stowage.memory.MemoryLimits.azure()).build();
    MemoryBlobStore targetBlobs = new MemoryBlobStore();
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, sourceBlobs, "")
            .target(targetDriver, targetBlobs, "")
            .build();
    Migrator.Report r = m.run();
    assertThat(r.misfits()).isEmpty();
    assertThat(r.progress().itemsCopied()).isEqualTo(12);
    assertThat(m.verify().ok()).isTrue();
    assertThat(targetBlobs.size()).isEqualTo(12);
    Table t =
        Stowage.builder(targetDriver)
            .blobStore(targetBlobs)
            .codecs(codecs)
            .build()
            .ensureTable(SPEC);
    for (Item original : originals) {
      assertThat(t.get(SPEC.keySchema().keyOf(original))).contains(original);
    }
  }
}
