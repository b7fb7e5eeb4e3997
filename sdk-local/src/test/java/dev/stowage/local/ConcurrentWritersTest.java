package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.query.Update;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Several drivers on one file, in this process and in another, write at once and lose nothing:
 * counters incremented through conditional writes end at the exact total, and every item each
 * writer put is there.
 */
class ConcurrentWritersTest {
  static final TableSpec COUNTERS =
      TableSpec.builder("counters", KeySchema.of("id", AttributeType.STRING))
          .index("byOwner", List.of("owner"), List.of("n"))
          .build();

  @Test
  void twoDriversOnOneFileLoseNoIncrementAndNoItem() throws Exception {
    Path file = TempStores.directory().resolve("shared.db");
    int threadsPerDriver = 4;
    int increments = 150;
    try (Stowage a = Stowage.builder(LocalDriver.open(file)).build();
        Stowage b = Stowage.builder(LocalDriver.open(file)).build()) {
      a.ensureTable(COUNTERS);
      List<Table> tables = List.of(a.table(COUNTERS), b.table(COUNTERS));
      ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerDriver);
      List<Future<?>> done = new ArrayList<>();
      for (int d = 0; d < 2; d++) {
        Table t = tables.get(d);
        for (int th = 0; th < threadsPerDriver; th++) {
          String writer = "w" + d + "-" + th;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < increments; i++) {
                      t.update(Key.of("shared"), Update.builder().increment("n", 1).build());
                      t.put(
                          Item.builder()
                              .put("id", writer + "-" + i)
                              .put("owner", writer)
                              .put("n", i)
                              .build());
                    }
                    return null;
                  }));
        }
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      Table t = tables.get(0);
      assertThat(t.get(Key.of("shared")).orElseThrow().getLong("n"))
          .isEqualTo(2L * threadsPerDriver * increments);
      for (int d = 0; d < 2; d++) {
        for (int th = 0; th < threadsPerDriver; th++) {
          String writer = "w" + d + "-" + th;
          assertThat(
                  tables
                      .get(1 - d)
                      .queryAll(Query.index("byOwner").partition(str(writer)).build())
                      .map(i -> i.getLong("n")))
              .as(writer)
              .containsExactlyElementsOf(range(increments));
        }
      }
    }
  }

  @Test
  void anotherProcessWritingTheSameFileLosesNothing() throws Exception {
    Path file = TempStores.directory().resolve("processes.db");
    int increments = 200;
    try (Stowage s = Stowage.builder(LocalDriver.open(file)).build()) {
      Table t = s.ensureTable(COUNTERS);
      Process child =
          ChildProcess.start(CounterWriter.class, file.toString(), "child", "" + increments);
      for (int i = 0; i < increments; i++) {
        t.update(Key.of("shared"), Update.builder().increment("n", 1).build());
        t.put(Item.builder().put("id", "parent-" + i).put("owner", "parent").put("n", i).build());
      }
      ChildProcess.awaitSuccess(child);
      assertThat(t.get(Key.of("shared")).orElseThrow().getLong("n")).isEqualTo(2L * increments);
      for (String owner : List.of("parent", "child")) {
        assertThat(
                t.queryAll(Query.index("byOwner").partition(str(owner)).build())
                    .map(i -> i.getLong("n")))
            .as(owner)
            .containsExactlyElementsOf(range(increments));
      }
    }
  }

  /** The other process of {@link #anotherProcessWritingTheSameFileLosesNothing}. */
  public static final class CounterWriter {
    public static void main(String[] args) {
      Path file = Path.of(args[0]);
      String owner = args[1];
      int increments = Integer.parseInt(args[2]);
      try (Stowage s = Stowage.builder(LocalDriver.open(file)).build()) {
        Table t = s.table(COUNTERS);
        for (int i = 0; i < increments; i++) {
          t.update(Key.of("shared"), Update.builder().increment("n", 1).build());
          t.put(Item.builder().put("id", owner + "-" + i).put("owner", owner).put("n", i).build());
        }
      }
    }
  }

  static List<Long> range(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  static dev.stowage.item.KeyValue str(String s) {
    return dev.stowage.item.AttributeValue.of(s);
  }
}
