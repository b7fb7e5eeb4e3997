package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.stowage.StowageMetrics.TableMetrics;
import dev.stowage.codec.Codecs;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.micrometer.MicrometerMetrics;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.ReadOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Overflow blobs written and read and the bytes of compressed attributes before and after the
 * codec, per table, in {@link Stowage#metrics()} and in Micrometer; checked against what the blob
 * store holds and what the codec produces.
 */
class OverflowAndCompressionMetricsTest {
  private static final TableSpec DOCS =
      TableSpec.builder("docs", KeySchema.of("id", STRING)).compressed("body").build();
  private static final TableSpec FILES =
      TableSpec.builder("files", KeySchema.of("id", STRING)).build();

  private final MemoryBlobStore blobs = new MemoryBlobStore();
  private final Stowage store =
      Stowage.builder(MemoryDriver.builder().limits(MemoryLimits.dynamoDb()).build())
          .blobStore(blobs)
          .build();

  @Test
  void overflowBlobsWrittenAndReadAreCountedWithTheBytesTheBlobStoreHolds() {
    Table files = store.ensureTable(FILES);
    files.put(Item.builder().put("id", "small").put("data", bytes(1_000)).build());
    assertThat(tableMetrics("", "files").overflowBlobsWritten()).isZero();

    // 500 KB does not fit DynamoDB's 400 KB item: the attribute moves into a blob.
    files.put(Item.builder().put("id", "big").put("data", bytes(500_000)).build());
    List<BlobStore.BlobInfo> held = blobs.list("").toList();
    assertThat(held).hasSize(1);
    TableMetrics written = tableMetrics("", "files");
    assertThat(written.overflowBlobsWritten()).isEqualTo(1);
    assertThat(written.overflowBytesWritten()).isEqualTo(held.get(0).size()).isGreaterThan(500_000);
    assertThat(written.overflowBlobsRead()).isZero();

    assertThat(files.get(Key.of("big")).orElseThrow().getBinary("data").size()).isEqualTo(500_000);
    files.get(Key.of("small"));
    TableMetrics read = tableMetrics("", "files");
    assertThat(read.overflowBlobsRead()).isEqualTo(1);
    assertThat(read.overflowBytesRead()).isEqualTo(held.get(0).size());

    // A read that needs no moved attribute leaves the blob alone.
    files.get(Key.of("big"), new ReadOptions(Set.of("id"), false));
    assertThat(tableMetrics("", "files").overflowBlobsRead()).isEqualTo(1);
    assertThat(tableMetrics("", "files").compressedValues()).isZero();
    assertThat(tableMetrics("", "files").compressionRatio()).isNaN();
  }

  @Test
  void compressedAttributesCountTheirSerialisedAndStoredBytes() {
    Table docs = store.ensureTable(DOCS);
    String text = "the quick brown fox jumps over the lazy dog. ".repeat(1_000);
    docs.put(Item.builder().put("id", "long").put("body", text).put("title", "t").build());
    docs.put(Item.builder().put("id", "short").put("body", "tiny").build());

    TableMetrics m = tableMetrics("", "docs");
    // Two values of "body"; "title" is not compressed and not counted.
    assertThat(m.compressedValues()).isEqualTo(2);
    long longBefore = serialisedString(text.length());
    long shortBefore = serialisedString(4);
    assertThat(m.bytesBeforeCompression()).isEqualTo(longBefore + shortBefore);
    // The long value as stored is exactly the codec's envelope; the short one is stored plain.
    AttributeValue envelope =
        Codecs.defaults()
            .encode(
                "docs",
                Key.of("long"),
                "body",
                AttributePolicy.COMPRESSED,
                AttributeValue.of(text));
    long longAfter = ((AttributeValue.BinaryValue) envelope).value().size();
    assertThat(longAfter).isLessThan(longBefore / 10);
    assertThat(m.bytesAfterCompression()).isEqualTo(longAfter + shortBefore);
    assertThat(m.compressionRatio())
        .isCloseTo((double) (longBefore + shortBefore) / (longAfter + shortBefore), within(1e-9))
        .isGreaterThan(10);
    assertThat(m.overflowBlobsWritten()).isZero();
  }

  @Test
  void eachTableAndNamespaceHasItsOwnCounters() {
    Table docs = store.ensureTable(DOCS);
    Table otherDocs = store.namespace("other").ensureTable(DOCS);
    store.ensureTable(FILES);
    docs.put(Item.builder().put("id", "a").put("body", "x".repeat(10_000)).build());
    otherDocs.put(Item.builder().put("id", "a").put("body", "y".repeat(5_000)).build());
    otherDocs.put(Item.builder().put("id", "b").put("body", "z".repeat(5_000)).build());

    StowageMetrics metrics = store.metrics();
    assertThat(metrics.tables())
        .extracting(TableMetrics::namespace, TableMetrics::table)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("", "docs"),
            org.assertj.core.groups.Tuple.tuple("", "files"),
            org.assertj.core.groups.Tuple.tuple("other", "docs"));
    assertThat(metrics.table("", "docs").orElseThrow().compressedValues()).isEqualTo(1);
    assertThat(metrics.table("", "docs").orElseThrow().bytesBeforeCompression())
        .isEqualTo(serialisedString(10_000));
    assertThat(metrics.table("other", "docs").orElseThrow().compressedValues()).isEqualTo(2);
    assertThat(metrics.table("", "files").orElseThrow().compressedValues()).isZero();
    assertThat(metrics.table("", "nothing")).isEmpty();
  }

  @Test
  void micrometerShowsTheSameCountersPerTableIncludingTablesOpenedLater() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Table files = store.ensureTable(FILES);
    MicrometerMetrics.bind(store, registry);
    Table docs = store.ensureTable(DOCS);
    files.put(Item.builder().put("id", "big").put("data", bytes(450_000)).build());
    files.get(Key.of("big"));
    docs.put(Item.builder().put("id", "a").put("body", "abc".repeat(10_000)).build());

    TableMetrics f = tableMetrics("", "files");
    TableMetrics d = tableMetrics("", "docs");
    assertThat(counter(registry, "stowage.overflow.blobs", "files", "direction", "written"))
        .isEqualTo(1);
    assertThat(counter(registry, "stowage.overflow.blobs", "files", "direction", "read"))
        .isEqualTo(1);
    assertThat(counter(registry, "stowage.overflow.bytes", "files", "direction", "written"))
        .isEqualTo(f.overflowBytesWritten());
    assertThat(counter(registry, "stowage.overflow.bytes", "files", "direction", "read"))
        .isEqualTo(f.overflowBytesRead());
    assertThat(counter(registry, "stowage.compression.bytes", "docs", "stage", "before"))
        .isEqualTo(d.bytesBeforeCompression());
    assertThat(counter(registry, "stowage.compression.bytes", "docs", "stage", "after"))
        .isEqualTo(d.bytesAfterCompression());
    assertThat(
            registry
                .get("stowage.compression.ratio")
                .tags("backend", "memory", "namespace", "", "table", "docs")
                .gauge()
                .value())
        .isEqualTo(d.compressionRatio())
        .isGreaterThan(10);
    assertThat(registry.get("stowage.compression.ratio").tags("table", "files").gauge().value())
        .isNaN();
  }

  private TableMetrics tableMetrics(String namespace, String table) {
    return store.metrics().table(namespace, table).orElseThrow();
  }

  private static double counter(
      SimpleMeterRegistry registry, String name, String table, String tag, String value) {
    return registry
        .get(name)
        .tags("backend", "memory", "namespace", "", "table", table, tag, value)
        .functionCounter()
        .count();
  }

  /** Random, so incompressible. */
  private static Bytes bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return Bytes.wrap(b);
  }

  /** A string's serialisation (docs/FORMAT.md): tag, varint length, UTF-8 bytes. */
  private static long serialisedString(int asciiLength) {
    int varint = 1;
    for (long v = asciiLength; v >= 0x80; v >>>= 7) {
      varint++;
    }
    return 1 + varint + asciiLength;
  }
}
