package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Query;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import dev.stowage.test.Emulators;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DynamoDB Local + S3 → Datastore emulator + GCS → Azurite tables + blobs → DynamoDB Local + S3
 * (another namespace), with compressed, encrypted and overflowed items; the migrator never holds
 * the keys, and the Azure hop is interrupted and resumed from its checkpoint. Every store is a real
 * driver on a real emulator: S3Proxy for S3, Azurite for Azure Blob, and the google-cloud-nio
 * in-process fake for GCS (there is no GCS emulator in the Cloud SDK). The emulators come from
 * sdk-test and stop when the test run ends.
 */
class CrossBackendMigrationTest {
  /**
   * 3,000 in the default build (about a minute); {@code -Dstowage.crossbackend.items=50000} for the
   * full run (about 11 minutes on two cores, most of it in the emulators: see docs/cli.md).
   */
  static final int ITEMS = Integer.getInteger("stowage.crossbackend.items", 3_000);

  /** One item in this many carries a 500 KB attachment, which overflows on every backend. */
  static final int ATTACHMENT_EVERY = 500;

  static final TableSpec SPEC =
      TableSpec.builder("ledger", KeySchema.of("account", STRING, "seq", NUMBER))
          .index("byDay", List.of("day"), List.of("seq"))
          .compressed("memo")
          .encrypted("iban")
          .compressed("attachment")
          .encrypted("attachment")
          .build();

  /**
   * Scanned page size of every hop. The Datastore emulator evaluates each query in time
   * proportional to the kind's size, so a scan of N items costs N²/page there; 2,000 keeps the
   * 50,000 item run at minutes (Cloud Datastore itself resumes a query in constant time).
   */
  static final int PAGE = 2000;

  /**
   * Segments read and pages written concurrently on every hop ({@code
   * -Dstowage.crossbackend.parallelism}); each hop reads as many segments.
   */
  static final int PARALLELISM = Integer.getInteger("stowage.crossbackend.parallelism", 4);

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

  static List<Item> originals() {
    Random random = new Random(11);
    List<Item> items = new ArrayList<>(ITEMS);
    for (int i = 0; i < ITEMS; i++) {
      Item.Builder b =
          Item.builder()
              .put("account", "acct-" + (i % 50))
              .put("seq", i)
              .put("day", "2026-11-" + (10 + i % 20))
              .put("amount", new BigDecimal(i + ".25"))
              .put("memo", "transfer for invoice " + i + " ".repeat(80))
              .put("iban", "DE" + (1000000 + i));
      if (i % ATTACHMENT_EVERY == 7) {
        byte[] attachment = new byte[500_000];
        random.nextBytes(attachment);
        b.put("attachment", attachment);
      }
      items.add(b.build());
    }
    return items;
  }

  static int attachments() {
    return (ITEMS + ATTACHMENT_EVERY - 8) / ATTACHMENT_EVERY;
  }

  static StorageDriver dynamo() {
    return DynamoDbDriver.create(Emulators.shared().dynamoDb().client());
  }

  static BlobStore s3(String prefix) {
    return S3BlobStore.builder()
        .client(Emulators.shared().s3().client())
        .bucket(Emulators.shared().s3().newBucket())
        .prefix(prefix)
        .build();
  }

  static long blobCount(BlobStore store) {
    return store.list("").count();
  }

  static void verify(String hop, Migrator migrator) {
    long t = System.nanoTime();
    Verification v = migrator.verify();
    System.out.printf(
        "cross-backend verification %s: %s in %,d ms%n",
        hop, v.ok() ? "ok" : "FAILED", (System.nanoTime() - t) / 1_000_000);
    assertThat(v.ok()).as("verification of " + hop + ": " + v).isTrue();
  }

  static void log(String hop, long startNanos, Migrator.Report report) {
    long ms = (System.nanoTime() - startNanos) / 1_000_000;
    System.out.printf(
        "cross-backend %s: %,d items, %,d blobs in %,d ms (%,d items/s)%n",
        hop,
        report.progress().itemsCopied(),
        report.progress().blobsCopied(),
        ms,
        report.progress().itemsCopied() * 1000L / Math.max(1, ms));
  }

  @Test
  void dynamoToDatastoreToAzureToDynamoKeepsEveryItemWithoutTheKeys() {
    List<Item> originals = originals();
    int blobs = attachments();

    StorageDriver ddb = dynamo();
    BlobStore s3 = s3("overflow");
    Table source =
        Stowage.builder(ddb)
            .blobStore(s3)
            .codecs(codecs)
            .namespace("prod")
            .build()
            .ensureTable(SPEC);
    long t = System.nanoTime();
    source.batchPut(originals);
    System.out.printf(
        "cross-backend seeding DynamoDB: %,d items in %,d ms%n",
        ITEMS, (System.nanoTime() - t) / 1_000_000);
    assertThat(blobCount(s3)).isEqualTo(blobs);

    // 1. DynamoDB + S3 → Datastore + GCS
    StorageDriver datastore =
        DatastoreDriver.builder()
            .projectId("test")
            .emulatorHost(Emulators.shared().datastore().hostPort())
            .build();
    BlobStore gcs = GcsBlobStore.of(LocalStorageHelper.getOptions().getService(), "gcs", "ov");
    Migrator toDatastore =
        Migrator.builder(SPEC)
            .source(ddb, s3, "prod")
            .target(datastore, gcs, "prod")
            .pageSize(PAGE)
            .parallelism(PARALLELISM)
            .build();
    t = System.nanoTime();
    Migrator.Report first = toDatastore.run();
    log("DynamoDB -> Datastore", t, first);
    assertThat(first.progress().itemsCopied()).isEqualTo(ITEMS);
    assertThat(first.progress().blobsCopied()).isEqualTo(blobs);
    assertThat(first.misfits()).isEmpty();
    verify("DynamoDB -> Datastore", toDatastore);
    assertThat(blobCount(gcs)).isEqualTo(blobs);

    // 2. Datastore + GCS → Azure Tables + Azure Blob, interrupted after a few batches and resumed
    String azure = Emulators.shared().azurite().connectionString();
    RecordingCopies tables = new RecordingCopies(AzureTablesDriver.fromConnectionString(azure));
    BlobStore azureBlobs = AzureBlobStore.fromConnectionString(azure, "overflow", "ov");
    // A third of the calls the hop needs (pages of PAGE in PARALLELISM segments), at least one.
    tables.failAfterCalls = Math.max(1, ITEMS / PAGE / 3);
    Path checkpoint = dir.resolve("ledger-to-azure.checkpoint");
    Migrator.Builder toAzure =
        Migrator.builder(SPEC)
            .source(datastore, gcs, "prod")
            .target(tables, azureBlobs, "prod")
            .pageSize(PAGE)
            .parallelism(PARALLELISM)
            .checkpoint(checkpoint)
            .retryPolicy(RetryPolicy.NONE);
    t = System.nanoTime();
    assertThatThrownBy(() -> toAzure.build().run()).hasMessage("simulated crash");
    int beforeCrash = tables.puts.size();
    assertThat(beforeCrash).isBetween(1, ITEMS - 1);
    tables.failAfterCalls = Integer.MAX_VALUE;
    Migrator resumed = toAzure.build();
    Migrator.Report second = resumed.run();
    // The resumed run's items over the time of both runs, as the documented runs were timed; and,
    // for the rate of the hop itself, all its items over the same time.
    log("Datastore -> Azure (resumed)", t, second);
    long both = (System.nanoTime() - t) / 1_000_000;
    System.out.printf(
        "cross-backend Datastore -> Azure (both runs): %,d items in %,d ms (%,d items/s)%n",
        ITEMS, both, ITEMS * 1000L / Math.max(1, both));
    assertThat(second.progress().itemsCopied()).isEqualTo(ITEMS - beforeCrash);
    assertThat(second.progress().itemsSkipped()).isEqualTo(beforeCrash);
    assertThat(tables.puts).hasSize(ITEMS);
    assertThat(tables.puts.values()).allMatch(n -> n.get() == 1);
    verify("Datastore -> Azure", resumed);
    assertThat(blobCount(azureBlobs)).isEqualTo(blobs);

    // 3. Azure → DynamoDB + S3, another namespace
    BlobStore s3Back = s3("back");
    StorageDriver azureTables = AzureTablesDriver.fromConnectionString(azure);
    Migrator back =
        Migrator.builder(SPEC)
            .source(azureTables, azureBlobs, "prod")
            .target(ddb, s3Back, "back")
            .pageSize(PAGE)
            .parallelism(PARALLELISM)
            .build();
    t = System.nanoTime();
    Migrator.Report third = back.run();
    log("Azure -> DynamoDB", t, third);
    assertThat(third.progress().itemsCopied()).isEqualTo(ITEMS);
    verify("Azure -> DynamoDB", back);
    assertThat(blobCount(s3Back)).isEqualTo(blobs);

    // Whoever holds the keys reads back exactly the originals ...
    Table ledger =
        Stowage.builder(dynamo())
            .blobStore(s3Back)
            .codecs(codecs)
            .namespace("back")
            .build()
            .ensureTable(SPEC);
    Map<Key, Item> read = ledger.batchGet(originals.stream().map(SPEC.keySchema()::keyOf).toList());
    assertThat(read).hasSize(ITEMS);
    for (Item original : originals) {
      assertThat(read.get(SPEC.keySchema().keyOf(original))).isEqualTo(original);
    }
    // ... and the index answers on every backend the items passed through.
    Query day17 = Query.index("byDay").partition(AttributeValue.of("2026-11-17")).build();
    long expected = originals.stream().filter(i -> i.getString("day").equals("2026-11-17")).count();
    for (Table copy :
        List.of(
            ledger,
            Stowage.builder(datastore)
                .blobStore(gcs)
                .codecs(codecs)
                .namespace("prod")
                .build()
                .ensureTable(SPEC),
            Stowage.builder(azureTables)
                .blobStore(azureBlobs)
                .codecs(codecs)
                .namespace("prod")
                .build()
                .ensureTable(SPEC))) {
      assertThat(copy.queryAll(day17).count()).isEqualTo(expected);
    }
  }

  /**
   * The Azure target, recording which keys its copy calls wrote and failing every call after the
   * first {@link #failAfterCalls} (a crash mid-hop). It takes copies as the driver does, in calls
   * of the driver's {@code maxBatchWriteCopies} (a page's at once for Azure), so the hop sends the
   * requests a user's migration sends; {@link MigratorTest.RecordingDriver}, a plain forwarding
   * driver, would have them in calls of {@code maxBatchWrite}.
   */
  static final class RecordingCopies extends ForwardingDriver {
    final Map<Key, AtomicInteger> puts = new ConcurrentHashMap<>();
    final AtomicInteger calls = new AtomicInteger();
    volatile int failAfterCalls = Integer.MAX_VALUE;

    RecordingCopies(StorageDriver delegate) {
      super(delegate);
    }

    @Override
    public int maxBatchWriteCopies(TableLayout table) {
      return delegate.maxBatchWriteCopies(table);
    }

    @Override
    public BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> writes) {
      if (calls.incrementAndGet() > failAfterCalls) {
        throw new IllegalStateException("simulated crash");
      }
      BatchWriteResult r = delegate.batchWriteCopies(table, writes);
      for (WriteOp op : writes) {
        if (!r.unprocessed().contains(op)) {
          puts.computeIfAbsent(op.key(), k -> new AtomicInteger()).incrementAndGet();
        }
      }
      return r;
    }
  }
}
