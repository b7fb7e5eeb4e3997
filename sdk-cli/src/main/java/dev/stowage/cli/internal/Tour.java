package dev.stowage.cli.internal;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;

import dev.stowage.DeleteJob;
import dev.stowage.InvalidCursorException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.migrate.CountingBlobStore;
import dev.stowage.migrate.CountingDriver;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.query.WriteOptions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code stowage tour}: walks through Stowage's features on an embedded in-memory store and prints
 * what each step did and what it cost. Every number printed is measured, never made up.
 */
public final class Tour {
  private final PrintStream out;
  private final CountingDriver driver;
  private final CountingBlobStore blobs;
  private final Stowage store;
  private final List<TourStep> steps = new ArrayList<>();
  private int stepNumber;

  /** One feature's walk-through. */
  public interface TourStep {
    /** The title printed above the step. */
    String title();

    /** Runs the step, printing through {@code tour}. */
    void run(Tour tour);
  }

  /**
   * A tour printing to {@code out}.
   *
   * @param blobStore the blob store for overflow, or null while none is available
   */
  public Tour(PrintStream out, BlobStore blobStore, StowageFactory factory) {
    this.out = out;
    this.driver = new CountingDriver(MemoryDriver.create());
    this.blobs = blobStore == null ? null : new CountingBlobStore(blobStore);
    this.store = factory.build(driver, blobs);
    if (blobs != null) {
      steps.add(step("Compressed and encrypted attributes", TourStorageSteps::codecs));
      steps.add(step("A 2 MB item overflows to the blob store", TourStorageSteps::overflow));
    }
    steps.add(step("Bidirectional cursor paging of a timeline", this::timeline));
    steps.add(step("A multi-column index query", this::multiColumnIndex));
    steps.add(step("Idempotent counters: the rate limiter", this::idempotentCounters));
    steps.add(step("Delete by index, with a progress bar", this::deleteByIndex));
    steps.add(step("Namespaces", this::namespaces));
  }

  /** Builds the store the tour runs on from its counting driver and blob store. */
  @FunctionalInterface
  public interface StowageFactory {
    /** The store; {@code blobs} may be null. */
    Stowage build(CountingDriver driver, CountingBlobStore blobs);
  }

  private static TourStep step(String title, java.util.function.Consumer<Tour> body) {
    return new TourStep() {
      @Override
      public String title() {
        return title;
      }

      @Override
      public void run(Tour tour) {
        body.accept(tour);
      }
    };
  }

  /** The store the tour runs on. */
  public Stowage store() {
    return store;
  }

  /** The counting driver under the store. */
  public CountingDriver driver() {
    return driver;
  }

  /** The counting blob store under the store, or null. */
  public CountingBlobStore blobs() {
    return blobs;
  }

  /** Prints one line of a step. */
  public void say(String line) {
    out.println("   " + line);
  }

  /** The output stream. */
  public PrintStream out() {
    return out;
  }

  /** Runs every step; returns the number of steps run. */
  public int run() {
    out.println(
        "Stowage tour — an embedded in-memory store (DynamoDB-like limits)"
            + (blobs == null ? "" : " with an in-memory blob store")
            + "; nothing to install.");
    for (TourStep s : steps) {
      stepNumber++;
      out.println();
      out.println(stepNumber + ". " + s.title());
      CountingDriver.Counts before = driver.counts();
      CountingBlobStore.Counts blobsBefore = blobs == null ? null : blobs.counts();
      long start = System.nanoTime();
      s.run(this);
      long ms = (System.nanoTime() - start) / 1_000_000;
      out.println(
          "   cost: " + cost(driver.counts().minus(before), blobsBefore) + ", " + ms + " ms");
    }
    out.println();
    CountingDriver.Counts all = driver.counts();
    out.println(
        "Tour complete: "
            + stepNumber
            + " steps, "
            + all.requests()
            + " backend requests, "
            + ProgressBar.bytes(all.bytesWritten())
            + " written.");
    out.println();
    // The tour runs in memory so that it leaves nothing behind; the commands that follow keep data.
    out.println(
        "The tour ran in memory and kept nothing. The other commands keep your data in the local"
            + " store, "
            + StowageHome.get().resolve("default.db")
            + " (SQLite, nothing to start), unless --store names another:");
    out.println(
        "  stowage put --store orders --pk id:S --create-table --item '{\"id\":\"o1\",\"total\":42}'");
    out.println("  stowage get --store orders --pk id:S --key o1");
    out.println(
        "  stowage console --store orders --pk id:S   (browse and edit it in a web console)");
    return stepNumber;
  }

  private static String counted(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  private String cost(CountingDriver.Counts c, CountingBlobStore.Counts blobsBefore) {
    String s =
        counted(c.requests(), "request", "requests")
            + " ("
            + counted(c.reads(), "read", "reads")
            + ", "
            + counted(c.writes(), "write", "writes")
            + ", "
            + counted(c.queries(), "query", "queries")
            + "), "
            + counted(c.itemsWritten(), "item", "items")
            + " written, "
            + ProgressBar.bytes(c.bytesWritten())
            + " stored";
    if (blobs != null) {
      CountingBlobStore.Counts b = blobs.counts().minus(blobsBefore);
      if (b.puts() + b.opens() + b.deletes() > 0) {
        s +=
            ", blobs: "
                + b.puts()
                + " written ("
                + ProgressBar.bytes(b.bytesPut())
                + "), "
                + b.opens()
                + " read, "
                + b.deletes()
                + " deleted";
      }
    }
    return s;
  }

  /** The stored size of one item, as the backend counts it. */
  public long storedBytes(Table table, Key key) {
    return driver
        .get(
            new dev.stowage.spi.TableLayout(
                new dev.stowage.spi.TableRef(table.namespace(), table.spec().name()),
                table.spec().keySchema(),
                table.spec().indexes().stream().map(dev.stowage.spi.IndexLayout::of).toList()),
            key,
            true)
        .map(s -> driver.limits().sizeModel().itemBytes(s.item()))
        .orElse(0L);
  }

  /** The raw stored form of one item, read through the driver. */
  public Item stored(Table table, Key key) {
    return driver
        .get(
            new dev.stowage.spi.TableLayout(
                new dev.stowage.spi.TableRef(table.namespace(), table.spec().name()),
                table.spec().keySchema(),
                table.spec().indexes().stream().map(dev.stowage.spi.IndexLayout::of).toList()),
            key,
            true)
        .orElseThrow()
        .item();
  }

  private void timeline(Tour t) {
    Table timeline =
        store.ensureTable(
            TableSpec.builder("timeline", KeySchema.of("feed", STRING, "at", NUMBER)).build());
    for (int i = 1; i <= 10; i++) {
      timeline.put(tweet(i));
    }
    say("10 tweets in feed 'ada' (at = 1..10). The client asks for the latest 4 (fig. 3):");
    Query latest = Query.partition("ada").descending().limit(4).build();
    Page first = timeline.query(latest);
    show("request 1", first);
    Page p2 = timeline.page(first.before().orElseThrow());
    show("request 2 (before cursor only)", p2);
    Page p3 = timeline.page(p2.before().orElseThrow());
    show("request 3 (before cursor only)", p3);
    timeline.put(tweet(11));
    timeline.put(tweet(12));
    say("Two new tweets arrive (at = 11, 12). Paging forward from request 1 (fig. 4):");
    Page newer = timeline.page(first.after().orElseThrow());
    show("request 4 (after cursor of request 1)", newer);
    say(
        "Cursors are sealed: "
            + first.before().orElseThrow().length()
            + " opaque characters that carry the whole query.");
  }

  private static Item tweet(int at) {
    return Item.builder().put("feed", "ada").put("at", at).put("text", "tweet #" + at).build();
  }

  private void show(String label, Page page) {
    say(
        String.format(
            "%-38s at=%-14s hasBefore=%-5s hasAfter=%s",
            label + ":",
            page.items().stream().map(i -> String.valueOf(i.getLong("at"))).toList(),
            page.hasBefore(),
            page.hasAfter()));
  }

  private void multiColumnIndex(Tour t) {
    Table orders =
        store.ensureTable(
            TableSpec.builder("orders", KeySchema.of("id", STRING))
                .index("byShopStatus", List.of("shop", "status"), List.of("day", "total"))
                .build());
    String[] days = {"2026-11-20", "2026-11-21", "2026-11-22"};
    String[] statuses = {"paid", "open"};
    int n = 0;
    for (String day : days) {
      for (String status : statuses) {
        for (int total : new int[] {120, 15, 60}) {
          n++;
          orders.put(
              Item.builder()
                  .put("id", String.format("o%02d", n))
                  .put("shop", n % 4 == 0 ? "lisbon" : "porto")
                  .put("status", status)
                  .put("day", day)
                  .put("total", total)
                  .build());
        }
      }
    }
    say(n + " orders; index byShopStatus: partition (shop, status), sort (day, total).");
    say("Query: shop=porto, status=paid, day >= 2026-11-21, ascending by (day, total):");
    Page page =
        orders.query(
            Query.index("byShopStatus")
                .partition(AttributeValue.of("porto"), AttributeValue.of("paid"))
                .sort(SortCondition.ge(AttributeValue.of("2026-11-21")))
                .build());
    for (Item i : page.items()) {
      say(
          "  "
              + i.getString("id")
              + "  "
              + i.getString("day")
              + "  total="
              + i.getNumber("total").toPlainString());
    }
  }

  private void idempotentCounters(Tour t) {
    Table ratelimit =
        store.ensureTable(TableSpec.builder("ratelimit", KeySchema.of("id", STRING)).build());
    int limit = 3;
    Key key = Key.of("u1:2026-11-22");
    say(
        "Rate limit: "
            + limit
            + " calls per user and day; each call increments 'calls' with its request id.");
    String[] requests = {"req-1", "req-2", "req-2", "req-3", "req-4"};
    for (String rid : requests) {
      Item after =
          ratelimit.update(
              key, Update.builder().increment("calls", 1).build(), WriteOptions.idempotent(rid));
      long calls = after.getLong("calls");
      say(String.format("%-6s -> calls=%d  %s", rid, calls, calls > limit ? "LIMITED" : "allowed"));
    }
    say(
        "The retried req-2 was applied once: calls="
            + ratelimit.get(key).orElseThrow().getLong("calls")
            + " after "
            + requests.length
            + " invocations.");
  }

  private void deleteByIndex(Tour t) {
    Table events =
        store.ensureTable(
            TableSpec.builder("events", KeySchema.of("source", STRING, "seq", NUMBER))
                .index("byLevel", List.of("level"), List.of("seq"))
                .build());
    List<Item> batch = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      batch.add(
          Item.builder()
              .put("source", "api-" + (i % 3))
              .put("seq", i)
              .put("level", i % 3 == 0 ? "info" : "debug")
              .build());
    }
    events.batchPut(batch);
    say("600 log events; deleting every 'debug' one through index byLevel, 50 per page:");
    Query debug = Query.index("byLevel").partition(AttributeValue.of("debug")).build();
    DeleteJob.Progress dry =
        events.deleteWhere(debug, new DeleteJob.Options(0, 50, true, null)).run();
    say("dry run: " + dry.matched() + " would be deleted");
    ProgressBar bar = new ProgressBar(out, "deleting", dry.matched(), false);
    DeleteJob.Progress done =
        events
            .deleteWhere(
                debug, new DeleteJob.Options(0, 50, false, p -> bar.update(p.deleted(), "")))
            .run();
    bar.finish(done.deleted(), "");
    long left = events.queryAll(Query.partition("api-1").build()).count();
    say("deleted " + done.deleted() + "; items left in partition api-1: " + left);
  }

  private void namespaces(Tour t) {
    Stowage staging = store.namespace("staging");
    TableSpec spec = TableSpec.builder("profiles", KeySchema.of("id", STRING)).build();
    Table prod = store.ensureTable(spec);
    Table stage = staging.ensureTable(spec);
    prod.put(Item.builder().put("id", "u1").put("plan", "pro").build());
    stage.put(Item.builder().put("id", "u1").put("plan", "trial").build());
    say("Same table 'profiles', same key u1, two namespaces:");
    say("  root    : " + ItemJson.write(prod.get(Key.of("u1")).orElseThrow()));
    say("  staging : " + ItemJson.write(stage.get(Key.of("u1")).orElseThrow()));
    Page page = stage.query(Query.partition("u1").build());
    try {
      prod.page(page.after().orElseThrow());
      say("  a staging cursor was accepted by root (unexpected)");
    } catch (InvalidCursorException e) {
      say("  a staging cursor replayed against root is rejected: " + e.getMessage());
    }
  }
}
