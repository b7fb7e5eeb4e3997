package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigratorTest {
  static final TableSpec SPEC =
      TableSpec.builder("events", KeySchema.of("feed", STRING, "at", NUMBER))
          .index("byKindDay", List.of("kind"), List.of("day", "at"))
          .build();

  @TempDir Path dir;

  /** Counts the puts each key receives and fails once after a number of batch writes. */
  static final class RecordingDriver extends ForwardingDriver {
    final Map<Key, AtomicInteger> puts = new ConcurrentHashMap<>();
    final AtomicInteger batches = new AtomicInteger();
    volatile int failAfterBatches = Integer.MAX_VALUE;

    RecordingDriver(StorageDriver delegate) {
      super(delegate);
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
      if (batches.incrementAndGet() > failAfterBatches) {
        throw new IllegalStateException("simulated crash");
      }
      BatchWriteResult r = delegate.batchWrite(table, writes);
      for (WriteOp op : writes) {
        if (!r.unprocessed().contains(op)) {
          puts.computeIfAbsent(op.key(), k -> new AtomicInteger()).incrementAndGet();
        }
      }
      return r;
    }
  }

  static List<Item> fill(Table t, int n) {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(
          Item.builder()
              .put("feed", "f" + (i % 7))
              .put("at", i)
              .put("kind", i % 3 == 0 ? "click" : "view")
              .put("day", "2026-11-" + (10 + i % 5))
              .put("payload", AttributeValue.map(Map.of("i", AttributeValue.of(i))))
              .build());
    }
    t.batchPut(items);
    return items;
  }

  @Test
  void copiesItemsAndIndexesBetweenNamespacesAndBackendsWithDifferentLimits() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    MemoryDriver targetDriver = MemoryDriver.builder().limits(MemoryLimits.azure()).build();
    Stowage source = Stowage.builder(sourceDriver).namespace("prod").build();
    List<Item> items = fill(source.ensureTable(SPEC), 1234);
    List<Migrator.Progress> progress = new ArrayList<>();
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, null, "prod")
            .target(targetDriver, null, "staging")
            .pageSize(100)
            .parallelism(3)
            .onProgress(progress::add)
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(1234);
    assertThat(r.misfits()).isEmpty();
    assertThat(progress).isNotEmpty().last().matches(Migrator.Progress::done);
    assertThat(m.verify().ok()).isTrue();

    Table copy = Stowage.builder(targetDriver).namespace("staging").build().ensureTable(SPEC);
    for (Item i : items.subList(0, 50)) {
      assertThat(copy.get(SPEC.keySchema().keyOf(i))).contains(i);
    }
    // the index works on the target without any rebuild pass: its values were copied
    List<Item> clicks =
        copy.queryAll(
                Query.index("byKindDay")
                    .partition(AttributeValue.of("click"))
                    .sort(SortCondition.eq(AttributeValue.of("2026-11-12")))
                    .build())
            .toList();
    assertThat(clicks)
        .containsExactlyElementsOf(
            items.stream()
                .filter(
                    i ->
                        i.getString("kind").equals("click")
                            && i.getString("day").equals("2026-11-12"))
                .sorted((a, b) -> Long.compare(a.getLong("at"), b.getLong("at")))
                .toList());
  }

  @Test
  void interruptedRunResumesFromItsCheckpointCopyingEveryItemExactlyOnce() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    fill(Stowage.builder(sourceDriver).build().ensureTable(SPEC), 2000);
    RecordingDriver target = new RecordingDriver(MemoryDriver.create());
    target.failAfterBatches = 23;
    Path checkpoint = dir.resolve("events.checkpoint");
    Migrator.Builder b =
        Migrator.builder(SPEC)
            .source(sourceDriver, null, "")
            .target(target, null, "")
            .pageSize(90)
            .parallelism(4)
            .checkpoint(checkpoint)
            .retryPolicy(RetryPolicy.NONE);
    assertThatThrownBy(() -> b.build().run()).hasMessage("simulated crash");
    int copiedBeforeCrash = target.puts.size();
    assertThat(copiedBeforeCrash).isBetween(1, 1999);

    // a crash while appending leaves a torn last line; it is ignored
    try {
      java.nio.file.Files.writeString(
          checkpoint, "page\tS:dG9ybg", java.nio.file.StandardOpenOption.APPEND);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    target.failAfterBatches = Integer.MAX_VALUE;
    Migrator resumed = b.build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(2000 - copiedBeforeCrash);
    assertThat(r.progress().itemsSkipped()).isEqualTo(copiedBeforeCrash);
    assertThat(target.puts).hasSize(2000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(resumed.verify().ok()).isTrue();

    // a third run finds everything done and writes nothing
    Migrator.Report again = b.build().run();
    assertThat(again.progress().itemsCopied()).isZero();
    assertThat(again.progress().itemsSkipped()).isEqualTo(2000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
  }

  @Test
  void checkpointOfAnotherMigrationIsRefused() {
    MemoryDriver a = MemoryDriver.create();
    MemoryDriver c = MemoryDriver.create();
    fill(Stowage.builder(a).build().ensureTable(SPEC), 3);
    Path checkpoint = dir.resolve("cp");
    Migrator.builder(SPEC)
        .source(a, null, "")
        .target(c, null, "one")
        .checkpoint(checkpoint)
        .build()
        .run();
    assertThatThrownBy(
            () ->
                Migrator.builder(SPEC)
                    .source(a, null, "")
                    .target(c, null, "two")
                    .checkpoint(checkpoint)
                    .build()
                    .run())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("belongs to another migration: the target namespace differs");
  }

  @Test
  void verificationReportsMissingExtraAndChangedItems() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    MemoryDriver targetDriver = MemoryDriver.create();
    List<Item> items = fill(Stowage.builder(sourceDriver).build().ensureTable(SPEC), 30);
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, null, "")
            .target(targetDriver, null, "")
            .build();
    m.run();
    Table copy = Stowage.builder(targetDriver).build().ensureTable(SPEC);
    copy.delete(SPEC.keySchema().keyOf(items.get(0)));
    copy.put(items.get(1).toBuilder().put("extra", "changed").build());
    copy.put(Item.builder().put("feed", "zz").put("at", 1).build());
    Verification v = m.verify();
    assertThat(v.ok()).isFalse();
    assertThat(v.sourceItems()).isEqualTo(30);
    assertThat(v.targetItems()).isEqualTo(30);
    assertThat(v.missing()).isEqualTo(1);
    assertThat(v.extra()).isEqualTo(1);
    assertThat(v.different()).isEqualTo(1);
    assertThat(v.examples()).hasSize(3);
  }

  @Test
  void retryableTargetErrorsAreRetried() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    fill(Stowage.builder(sourceDriver).build().ensureTable(SPEC), 100);
    AtomicInteger failures = new AtomicInteger(3);
    StorageDriver flaky =
        new ForwardingDriver(MemoryDriver.create()) {
          @Override
          public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
            if (failures.getAndDecrement() > 0) {
              throw new UnavailableException("connection reset", null);
            }
            return delegate.batchWrite(table, writes);
          }
        };
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, null, "")
            .target(flaky, null, "")
            .retryPolicy(
                new RetryPolicy(5, java.time.Duration.ofMillis(1), java.time.Duration.ofMillis(5)))
            .build();
    assertThat(m.run().progress().itemsCopied()).isEqualTo(100);
    assertThat(m.verify().ok()).isTrue();
  }

  @Test
  void itemsTooLargeForTheTargetAreReportedNotWritten() {
    MemoryDriver sourceDriver = MemoryDriver.builder().limits(MemoryLimits.datastore()).build();
    MemoryDriver azure = MemoryDriver.builder().limits(MemoryLimits.azure()).build();
    Table t = Stowage.builder(sourceDriver).build().ensureTable(SPEC);
    t.put(Item.builder().put("feed", "f").put("at", 1).put("big", "x".repeat(100_000)).build());
    t.put(Item.builder().put("feed", "f").put("at", 2).build());
    Item longKind =
        Item.builder()
            .put("feed", "f")
            .put("at", 3)
            .put("kind", "k".repeat(1200))
            .put("day", "d")
            .build();
    t.put(longKind);
    Migrator.Report r =
        Migrator.builder(SPEC).source(sourceDriver, null, "").target(azure, null, "").build().run();
    assertThat(r.progress().itemsCopied())
        .as("an index value longer than Azure indexes is copied in its long form")
        .isEqualTo(2);
    assertThat(r.misfits()).extracting(Migrator.Misfit::key).containsExactly(Key.of("f", 1));
    assertThat(
            Stowage.builder(azure)
                .build()
                .table(SPEC)
                .queryAll(
                    Query.index("byKindDay").partition(AttributeValue.of("k".repeat(1200))).build())
                .toList())
        .containsExactly(longKind);
  }

  /** Counts batch writes and copy writes apart; fails the first copy write as unavailable. */
  static final class CopyCountingDriver extends ForwardingDriver {
    final AtomicInteger batchWrites = new AtomicInteger();
    final AtomicInteger copyWrites = new AtomicInteger();
    final AtomicInteger copied = new AtomicInteger();

    CopyCountingDriver(StorageDriver delegate) {
      super(delegate);
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
      batchWrites.incrementAndGet();
      return delegate.batchWrite(table, writes);
    }

    @Override
    public BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> writes) {
      if (copyWrites.incrementAndGet() == 1) {
        throw new UnavailableException("simulated outage before the first copy");
      }
      BatchWriteResult r = delegate.batchWriteCopies(table, writes);
      copied.addAndGet(writes.size() - r.unprocessed().size());
      return r;
    }
  }

  @Test
  void itemsAreWrittenAsCopiesAndAFailedCopyWriteIsRetried() {
    MemoryDriver sourceDriver = MemoryDriver.create();
    List<Item> items = fill(Stowage.builder(sourceDriver).build().ensureTable(SPEC), 600);
    CopyCountingDriver target = new CopyCountingDriver(MemoryDriver.create());
    Migrator m =
        Migrator.builder(SPEC)
            .source(sourceDriver, null, "")
            .target(target, null, "copy")
            .pageSize(100)
            .parallelism(3)
            .build();

    assertThat(m.run().progress().itemsCopied()).isEqualTo(600);
    assertThat(target.batchWrites).hasValue(0);
    assertThat(target.copied).hasValue(600);
    assertThat(target.copyWrites.get()).isGreaterThan(1);
    assertThat(m.verify().ok()).isTrue();
    Table copy = Stowage.builder(target).namespace("copy").build().ensureTable(SPEC);
    for (Item i : items) {
      assertThat(copy.get(SPEC.keySchema().keyOf(i))).contains(i);
    }

    // copy(List) writes through the same path
    int before = target.copyWrites.get();
    Item stored =
        sourceDriver
            .scan(m.sourceLayout(), new dev.stowage.spi.DriverScan(1, null, true))
            .items()
            .get(0)
            .item();
    m.copy(List.of(stored));
    assertThat(target.copyWrites.get()).isEqualTo(before + 1);
    assertThat(target.batchWrites).hasValue(0);
  }
}
