package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.WriteOptions;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Codecs, overflow and the core together, on the memory driver. */
class EndToEndTest {
  private final MemoryDriver driver = MemoryDriver.create();
  private final MemoryBlobStore blobs = new MemoryBlobStore();
  private final Stowage store;
  private final Table docs;

  EndToEndTest() throws Exception {
    AeadConfig.register();
    KeyProvider keys =
        KeyProvider.ofKeyset(KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM));
    store =
        Stowage.builder(driver)
            .blobStore(blobs)
            .codecs(Codecs.builder().keys(keys).build())
            .namespace("prod")
            .build();
    docs =
        store.ensureTable(
            TableSpec.builder("docs", KeySchema.of("id", STRING))
                .compressed("body")
                .encrypted("secret")
                .index("byOwner", List.of("owner"), List.of())
                .build());
  }

  private static String text(int bytes) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; b.length() < bytes; i++) {
      b.append("{\"line\":")
          .append(i)
          .append(",\"text\":\"lorem ipsum ")
          .append(i * 7919 % 1000)
          .append("\"}\n");
    }
    return b.substring(0, bytes);
  }

  @Test
  void largeEncryptedItemsOverflowAndReadBackEverywhere() {
    String big = text(3_000_000);
    byte[] noise = new byte[600_000];
    new java.util.Random(7).nextBytes(noise);
    Item item =
        Item.builder()
            .put("id", "d1")
            .put("owner", "ada")
            .put("body", big)
            .put("secret", "the launch code")
            .put("raw", noise)
            .build();
    docs.put(item);
    assertThat(docs.get(Key.of("d1"))).contains(item);
    assertThat(docs.batchGet(List.of(Key.of("d1")))).containsEntry(Key.of("d1"), item);
    assertThat(
            docs.query(Query.index("byOwner").partition(AttributeValue.of("ada")).build()).items())
        .containsExactly(item);
    assertThat(blobs.size()).isEqualTo(1);

    // The stored form holds neither the secret nor the body in clear.
    TableLayout layout =
        new TableLayout(new TableRef("prod", "docs"), docs.spec().keySchema(), List.of());
    Item stored = driver.get(layout, Key.of("d1"), true).orElseThrow().item();
    assertThat(stored.toString()).doesNotContain("launch code");
    assertThat(new String(ValueBytes.of(stored), StandardCharsets.ISO_8859_1))
        .doesNotContain("launch code");

    // Overwrite and delete release old blobs; nothing is left for the sweeper.
    docs.put(item.toBuilder().put("secret", "new code").build());
    assertThat(blobs.size()).isEqualTo(1);
    assertThat(
            docs.get(Key.of("d1"), dev.stowage.query.ReadOptions.project("owner"))
                .orElseThrow()
                .names())
        .containsExactlyInAnyOrder("id", "owner");
    docs.delete(Key.of("d1"));
    assertThat(blobs.size()).isZero();
    assertThat(docs.sweepOverflow(Duration.ZERO, false).orphaned()).isZero();
  }

  @Test
  void conditionsOnEncryptedAttributesAreRejectedBeforeWriting() {
    assertThatThrownBy(
            () ->
                docs.put(
                    Item.builder().put("id", "x").put("secret", "s").build(),
                    WriteOptions.when(Condition.eq("secret", "s"))))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("encrypted");
    assertThat(docs.get(Key.of("x"))).isEmpty();
  }

  /** Flattens binary values of a stored item for a plaintext search. */
  static final class ValueBytes {
    static byte[] of(Item stored) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      stored
          .attributes()
          .values()
          .forEach(
              v -> {
                if (v instanceof AttributeValue.BinaryValue b) {
                  out.writeBytes(b.value().toByteArray());
                }
              });
      return out.toByteArray();
    }
  }
}
