package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.num;
import static dev.stowage.testkit.Helpers.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.stowage.DeleteJob;
import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Delete-by-index jobs: exact counts, progress, rate limits, dry runs, interruption, cancellation
 * and resume.
 */
abstract class DeleteJobContracts extends Contract {

  private static TableSpec spec() {
    return TableSpec.builder("jobs", KeySchema.of("id", AttributeType.STRING))
        .index("byStatus", List.of("status"), List.of("createdAt"))
        .build();
  }

  private static Query expired() {
    return Query.index("byStatus").partition(str("expired")).build();
  }

  /** {@code matching} expired items and {@code others} active ones; returns the active ones. */
  private static List<Item> load(Table t, int matching, int others) {
    List<Item> all = new ArrayList<>();
    List<Item> kept = new ArrayList<>();
    for (int i = 0; i < matching + others; i++) {
      boolean match = i % (matching + others) < matching;
      Item item =
          Item.builder()
              .put("id", String.format("job-%06d", i))
              .put("status", match ? "expired" : "active")
              .put("createdAt", i)
              .build();
      all.add(item);
      if (!match) {
        kept.add(item);
      }
    }
    t.batchPut(all);
    return kept;
  }

  @Test
  void deletesEverythingTheIndexQueryMatchesWithProgressReports() {
    Table t = table(spec());
    int n = scale().deleteItems();
    List<Item> kept = load(t, n, 500);
    List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
    DeleteJob.Progress done =
        t.deleteWhere(expired(), new DeleteJob.Options(0, 100, false, reports::add)).run();
    assertThat(done.matched()).isEqualTo(n);
    assertThat(done.deleted()).isEqualTo(n);
    assertThat(done.done()).isTrue();
    assertThat(reports).hasSizeGreaterThanOrEqualTo(n / 100);
    for (int i = 1; i < reports.size(); i++) {
      assertThat(reports.get(i).deleted()).isGreaterThanOrEqualTo(reports.get(i - 1).deleted());
    }
    assertThat(reports.get(reports.size() - 1).done()).isTrue();
    assertThat(t.queryAll(expired())).isEmpty();
    assertThat(Helpers.scanAll(t)).containsExactlyInAnyOrderElementsOf(kept);
  }

  @Test
  void anInterruptedJobResumesFromItsTokenWithExactCounts() {
    Table t = table(spec());
    int n = scale().deleteItems();
    List<Item> kept = load(t, n, 300);
    int pageSize = 100;
    int stopAfterPages = n / pageSize / 2;
    List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
    RuntimeException crash = new IllegalStateException("simulated crash midway");
    DeleteJob.Options options =
        new DeleteJob.Options(
            0,
            pageSize,
            false,
            p -> {
              reports.add(p);
              if (reports.size() == stopAfterPages) {
                throw crash;
              }
            });
    Throwable thrown = catchThrowable(() -> t.deleteWhere(expired(), options).run());
    assertThat(thrown).as("the listener's exception stops the job").isNotNull();
    assertThat(reports).hasSize(stopAfterPages);
    DeleteJob.Progress atCrash = reports.get(reports.size() - 1);
    assertThat(atCrash.done()).isFalse();
    assertThat(atCrash.deleted()).isPositive().isLessThan(n);
    long remaining = t.queryAll(expired()).count();
    assertThat(remaining).as("part of the items are gone").isEqualTo(n - atCrash.deleted());

    DeleteJob.Progress finished =
        t.resumeDelete(atCrash.resumeToken(), DeleteJob.Options.DEFAULT).run();
    assertThat(finished.done()).isTrue();
    assertThat(finished.matched()).as("matched over the whole job").isEqualTo(n);
    assertThat(finished.deleted()).as("deleted over the whole job").isEqualTo(n);
    assertThat(t.queryAll(expired())).isEmpty();
    assertThat(Helpers.scanAll(t)).containsExactlyInAnyOrderElementsOf(kept);
  }

  @Test
  void aCancelledJobStopsAfterItsPageAndResumes() {
    Table t = table(spec());
    List<Item> kept = load(t, 450, 50);
    List<DeleteJob.Progress> reports = new CopyOnWriteArrayList<>();
    AtomicReference<DeleteJob> job = new AtomicReference<>();
    job.set(
        t.deleteWhere(
            expired(),
            new DeleteJob.Options(
                0,
                100,
                false,
                p -> {
                  reports.add(p);
                  if (reports.size() == 2) {
                    job.get().cancel(); // stops before the next page
                  }
                })));
    DeleteJob.Progress stopped = job.get().run();
    assertThat(stopped.done()).isFalse();
    assertThat(stopped.deleted()).as("every delete of the pages reported is in").isEqualTo(200);
    assertThat(t.queryAll(expired())).hasSize(250);

    DeleteJob.Progress finished =
        t.resumeDelete(stopped.resumeToken(), DeleteJob.Options.DEFAULT).run();
    assertThat(finished.done()).isTrue();
    assertThat(finished.matched()).isEqualTo(450);
    assertThat(finished.deleted()).isEqualTo(450);
    assertThat(Helpers.scanAll(t)).containsExactlyInAnyOrderElementsOf(kept);
  }

  @Test
  void theRateLimitSlowsTheJobDown() {
    Table t = table(spec());
    load(t, 60, 10);
    long start = System.nanoTime();
    DeleteJob.Progress done =
        t.deleteWhere(expired(), new DeleteJob.Options(100, 10, false, null)).run();
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(done.deleted()).isEqualTo(60);
    assertThat(millis)
        .as("60 items at 100 items/s take at least ~0.5 s")
        .isGreaterThanOrEqualTo(400);
  }

  @Test
  void aDryRunCountsWithoutDeleting() {
    Table t = table(spec());
    load(t, 250, 50);
    DeleteJob.Progress dry =
        t.deleteWhere(expired(), new DeleteJob.Options(0, 100, false, null).asDryRun()).run();
    assertThat(dry.matched()).isEqualTo(250);
    assertThat(dry.deleted()).isZero();
    assertThat(dry.done()).isTrue();
    assertThat(t.queryAll(expired())).hasSize(250);
    assertThat(Helpers.scanAll(t)).hasSize(300);
  }

  @Test
  void deletesWhatAPrimaryKeyQueryMatches() {
    Table t = table(Helpers.pnSpec("pkjobs"));
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      items.add(Helpers.item("a", i));
      items.add(Helpers.item("b", i));
    }
    t.batchPut(items);
    DeleteJob.Progress done =
        t.deleteWhere(
                Query.partition("a").sort(SortCondition.lt(num(50))).limit(7).build(),
                new DeleteJob.Options(0, 7, false, null))
            .run();
    assertThat(done.matched()).isEqualTo(50);
    assertThat(done.deleted()).isEqualTo(50);
    assertThat(t.queryAll(Query.partition("a").build()).map(i -> i.getLong("s")).toList())
        .containsExactlyElementsOf(java.util.stream.LongStream.range(50, 100).boxed().toList());
    assertThat(t.queryAll(Query.partition("b").build())).hasSize(100);
  }
}
