package dev.stowage.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The migrator hands the target its copies in calls of the target's {@link
 * StorageDriver#maxBatchWriteCopies}, records each call in the checkpoint by the writes it holds,
 * and resumes a run that stopped in the middle of a page (from its own records, or from the chunk
 * records of an earlier version, whose chunks were the target's batch-write limit) writing every
 * item exactly once.
 */
class CopyCallsTest {
  @TempDir Path dir;

  /**
   * A target taking copies in calls of up to {@link #perCall} writes, as a driver that groups a
   * call's writes itself does (it writes them to the memory driver in batches of its limit): it
   * records every call's size and every key's puts, and fails every call after {@link
   * #failAfterCalls}.
   */
  static final class GroupingTarget extends ForwardingDriver {
    volatile int perCall;
    volatile int failAfterCalls = Integer.MAX_VALUE;
    final AtomicInteger callsStarted = new AtomicInteger();
    final List<Integer> calls = Collections.synchronizedList(new ArrayList<>());
    final Map<Key, AtomicInteger> puts = new ConcurrentHashMap<>();

    GroupingTarget(StorageDriver delegate, int perCall) {
      super(delegate);
      this.perCall = perCall;
    }

    @Override
    public int maxBatchWriteCopies(TableLayout table) {
      return perCall;
    }

    @Override
    public BatchWriteResult batchWriteCopies(TableLayout table, List<WriteOp> writes) {
      if (writes.size() > perCall) {
        throw new IllegalArgumentException(
            "a call of " + writes.size() + " copies exceeds " + perCall);
      }
      if (callsStarted.incrementAndGet() > failAfterCalls) {
        throw new IllegalStateException("simulated crash");
      }
      int limit = delegate.limits(table).maxBatchWrite();
      for (int i = 0; i < writes.size(); i += limit) {
        BatchWriteResult r =
            delegate.batchWrite(table, writes.subList(i, Math.min(writes.size(), i + limit)));
        assertThat(r.unprocessed()).isEmpty();
      }
      for (WriteOp w : writes) {
        puts.computeIfAbsent(w.key(), k -> new AtomicInteger()).incrementAndGet();
      }
      calls.add(writes.size());
      return BatchWriteResult.DONE;
    }
  }

  private static MemoryDriver source(int items) {
    MemoryDriver memory = MemoryDriver.create();
    MigratorTest.fill(Stowage.builder(memory).build().ensureTable(MigratorTest.SPEC), items);
    return memory;
  }

  private Migrator.Builder migration(MemoryDriver source, StorageDriver target, Path checkpoint) {
    Migrator.Builder b =
        Migrator.builder(MigratorTest.SPEC)
            .source(source, null, "")
            .target(target, null, "")
            .pageSize(500)
            .parallelism(4)
            .segments(1)
            .retryPolicy(RetryPolicy.NONE);
    return checkpoint == null ? b : b.checkpoint(checkpoint);
  }

  @Test
  void aPageGoesToTheTargetInCallsOfTheTargetsCopyBatchSize() {
    MemoryDriver source = source(2000);
    GroupingTarget target = new GroupingTarget(MemoryDriver.create(), 300);
    assertThat(target.limits().maxBatchWrite()).isEqualTo(25);
    Migrator m = migration(source, target, dir.resolve("cp")).build();
    assertThat(m.run().progress().itemsCopied()).isEqualTo(2000);
    // four pages of 500, each in a call of 300 and one of the 200 left: not 20 calls of 25
    List<Integer> sizes = new ArrayList<>(target.calls);
    Collections.sort(sizes);
    assertThat(sizes).containsExactly(200, 200, 200, 200, 300, 300, 300, 300);
    assertThat(target.puts).hasSize(2000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(m.verify().ok()).isTrue();
    assertThat(records(dir.resolve("cp"), "writes")).hasSize(8);
    assertThat(records(dir.resolve("cp"), "chunk")).isEmpty();
  }

  @Test
  void aRunStoppedInTheMiddleOfAPageResumesWritingEveryItemOnce() throws IOException {
    MemoryDriver source = source(2000);
    GroupingTarget target = new GroupingTarget(MemoryDriver.create(), 200);
    target.failAfterCalls = 5; // pages of 500 take 3 calls each (200, 200, 100)
    Path cp = dir.resolve("cp");
    Migrator.Builder b = migration(source, target, cp);
    assertThatThrownBy(() -> b.build().run()).hasMessage("simulated crash");
    int before = target.puts.size();
    assertThat(before).isBetween(1, 1999);
    assertThat(halfDonePages(cp)).as("a page with some of its calls recorded").isNotEmpty();

    target.failAfterCalls = Integer.MAX_VALUE;
    Migrator resumed = b.build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(2000 - before);
    assertThat(r.progress().itemsSkipped()).isEqualTo(before);
    assertThat(target.puts).hasSize(2000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    Verification v = resumed.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
  }

  /**
   * A checkpoint written by an earlier version records chunks of the target's batch-write limit
   * ({@code chunk <page> <index>}); a run resumed from it by a target taking larger calls skips
   * exactly those writes. Its last line torn by the crash ({@code chunk <page> 1} cut from a chunk
   * {@code 1x}, naming a chunk not written) is not read.
   */
  @Test
  void aCheckpointOfChunksOfAnEarlierVersionIsResumedWithLargerCalls() throws IOException {
    MemoryDriver source = source(2000);
    // Calls of the batch-write limit, as an earlier version sent them.
    GroupingTarget target = new GroupingTarget(MemoryDriver.create(), 25);
    target.failAfterCalls = 30;
    Path cp = dir.resolve("cp");
    assertThatThrownBy(() -> migration(source, target, cp).build().run())
        .hasMessage("simulated crash");
    int before = target.puts.size();
    assertThat(before).isEqualTo(30 * 25);

    // The same file as the earlier version wrote it: each call a chunk record.
    List<String> lines = Files.readAllLines(cp, StandardCharsets.UTF_8);
    List<String> old = new ArrayList<>();
    Map<String, Set<Integer>> chunks = new HashMap<>();
    for (String line : lines) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("writes")) {
        int from = Integer.parseInt(f[2]);
        assertThat(from % 25).isZero();
        assertThat(Integer.parseInt(f[3])).isEqualTo(from + 25);
        old.add("chunk\t" + f[1] + "\t" + from / 25);
        chunks.computeIfAbsent(f[1], k -> new HashSet<>()).add(from / 25);
      } else {
        old.add(line);
      }
    }
    Set<String> halfDone = halfDonePages(cp);
    assertThat(halfDone).isNotEmpty();
    String page = halfDone.iterator().next();
    int missing = 0;
    while (chunks.get(page).contains(missing)) {
      missing++;
    }
    assertThat(missing).as("a chunk of the half-done page that was not written").isLessThan(20);
    Files.write(cp, old, StandardCharsets.UTF_8);
    Files.writeString(
        cp, "chunk\t" + page + "\t" + missing, StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    target.perCall = 1000;
    target.failAfterCalls = Integer.MAX_VALUE;
    target.calls.clear();
    Migrator resumed = migration(source, target, cp).build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(2000 - before);
    assertThat(r.progress().itemsSkipped()).isEqualTo(before);
    assertThat(target.puts).hasSize(2000);
    assertThat(target.puts.values()).allMatch(n -> n.get() == 1);
    assertThat(target.calls)
        .as("the resumed run writes what is left of a page in calls larger than 25")
        .anyMatch(n -> n > 25);
    Verification v = resumed.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
    assertThat(Files.readString(cp, StandardCharsets.UTF_8))
        .as("the torn line was cut off")
        .doesNotContain("chunk\t" + page + "\t" + missing + "\n");
  }

  /** The checkpoint's records of one kind. */
  private static List<String> records(Path cp, String kind) {
    try {
      return Files.readAllLines(cp, StandardCharsets.UTF_8).stream()
          .filter(l -> l.startsWith(kind + "\t"))
          .toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Pages with calls (or chunks) recorded but no page record. */
  private static Set<String> halfDonePages(Path cp) {
    Set<String> started = new HashSet<>();
    Set<String> done = new HashSet<>();
    for (String l : records(cp, "writes")) {
      started.add(l.split("\t")[1]);
    }
    for (String l : records(cp, "chunk")) {
      started.add(l.split("\t")[1]);
    }
    for (String l : records(cp, "page")) {
      done.add(l.split("\t")[1]);
    }
    started.removeAll(done);
    return started;
  }
}
