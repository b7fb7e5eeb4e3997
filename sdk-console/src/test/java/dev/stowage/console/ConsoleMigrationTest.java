package dev.stowage.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.Query;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Migration jobs over the console's JSON API: a table copied to another store's namespace with its
 * overflowed item and encrypted values, live progress per segment, verified at the end; cancelled
 * and resumed, and failed halfway and resumed, with every item written exactly once; bad input
 * refused before anything is written.
 */
class ConsoleMigrationTest {
  static final int ITEMS = ConsoleFixture.ORDERS + 1;

  final HttpClient http = HttpClient.newHttpClient();
  ConsoleFixture fixture;
  TargetDriver targetDriver;
  Stowage target;
  Console console;

  /** The target's driver: counts the puts of each key, can be slowed down and made to fail. */
  static final class TargetDriver extends ForwardingDriver {
    final Map<Key, AtomicInteger> puts = new ConcurrentHashMap<>();
    final AtomicInteger batches = new AtomicInteger();
    volatile int failAfterBatches = Integer.MAX_VALUE;
    volatile long delayMillis;

    TargetDriver() {
      super(
          MemoryDriver.builder()
              .limits(MemoryLimits.dynamoDb())
              .capabilities(MemoryLimits.dynamoDbCapabilities())
              .build());
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
      if (batches.incrementAndGet() > failAfterBatches) {
        throw new IllegalStateException("simulated outage of the target");
      }
      try {
        Thread.sleep(delayMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
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

  @BeforeEach
  void start() {
    fixture = new ConsoleFixture(ConsoleFixture.Where.MEMORY, null);
    targetDriver = new TargetDriver();
    MemoryBlobStore targetBlobs = new MemoryBlobStore();
    target =
        Stowage.builder(targetDriver)
            .namespace("copy")
            .blobStore(targetBlobs)
            .codecs(fixture.codecs)
            .build();
    // The console opens the tables it shows: the target store shows the (still empty) copy.
    target.ensureTable(ConsoleFixture.SPEC);
    console =
        Console.builder()
            .store(
                "source",
                fixture.stowage,
                fixture.blobs,
                fixture.codecs,
                List.of(ConsoleFixture.SPEC))
            .store("copy", target, targetBlobs, fixture.codecs, List.of(ConsoleFixture.SPEC))
            .start();
  }

  @AfterEach
  void stop() {
    console.close();
    target.close();
    fixture.close();
  }

  @Test
  void aTableIsCopiedToAnotherNamespaceWithProgressPerSegmentAndVerified() throws Exception {
    HttpResponse<String> started =
        migrate("{\"target\":\"1\",\"pageSize\":\"4\",\"segments\":\"3\"}");
    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    assertThat(started.body()).contains("\"kind\":\"migrate\"", "migrate orders from source");
    String id = id(started);
    String done = waitFor(id, "\"state\":\"done\"");
    assertThat(done)
        .contains("\"phase\":\"verified\"", "\"copied\":" + ITEMS, "\"blobsCopied\":1")
        .contains("\"ok\":true", "\"sourceItems\":" + ITEMS, "\"targetItems\":" + ITEMS)
        .contains("\"number\":0", "\"number\":1", "\"number\":2")
        .doesNotContain("\"done\":false");
    assertThat(done.split("\"number\":", -1)).hasSize(4);
    assertTargetHoldsEveryItemOnce();
  }

  @Test
  void aCancelledMigrationResumesFromItsCheckpoint() throws Exception {
    targetDriver.delayMillis = 150;
    String id = id(migrate("{\"target\":\"1\",\"pageSize\":\"2\",\"segments\":\"1\"}"));
    waitFor(id, "\"copied\":[1-9]");
    post("api/jobs/" + id + "/cancel");
    String cancelled = waitFor(id, "\"state\":\"cancelled\"");
    long before = number(cancelled, "copied");
    assertThat(before).isBetween(1L, ITEMS - 1L);
    assertThat(cancelled).contains("\"done\":false").contains("\"verification\":null");
    assertThat(targetDriver.puts).hasSize((int) before);

    targetDriver.delayMillis = 0;
    HttpResponse<String> resumed = post("api/jobs/" + id + "/resume");
    assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
    String done = waitFor(id, "\"state\":\"done\"");
    assertThat(number(done, "copied")).isEqualTo(ITEMS);
    assertThat(number(done, "copiedThisRun")).isEqualTo(ITEMS - before);
    assertThat(done).contains("\"ok\":true");
    assertTargetHoldsEveryItemOnce();
    assertThat(post("api/jobs/" + id + "/resume").statusCode()).isEqualTo(400);
  }

  @Test
  void aMigrationWhoseTargetFailsHalfwayShowsTheFailureAndResumes() throws Exception {
    targetDriver.failAfterBatches = 4;
    String id = id(migrate("{\"target\":\"1\",\"pageSize\":\"3\",\"segments\":\"2\"}"));
    String failed = waitFor(id, "\"state\":\"failed\"");
    assertThat(failed).contains("simulated outage of the target");
    int before = targetDriver.puts.size();
    assertThat(before).isBetween(1, ITEMS - 1);

    targetDriver.failAfterBatches = Integer.MAX_VALUE;
    assertThat(post("api/jobs/" + id + "/resume").statusCode()).isEqualTo(200);
    String done = waitFor(id, "\"state\":\"done\"");
    assertThat(done).contains("\"copied\":" + ITEMS, "\"ok\":true", "\"error\":null");
    assertThat(number(done, "copiedThisRun")).isEqualTo(ITEMS - before);
    assertTargetHoldsEveryItemOnce();
  }

  @Test
  void badInputIsRefusedBeforeAnythingIsWritten() throws Exception {
    HttpResponse<String> same = migrate("{\"target\":\"0\"}");
    assertThat(same.statusCode()).isEqualTo(400);
    assertThat(same.body()).contains("cannot be migrated onto itself");

    HttpResponse<String> noTable = post("api/tables/7/migrate-job", "{\"target\":\"1\"}");
    assertThat(noTable.statusCode()).isEqualTo(404);
    assertThat(noTable.body()).contains("no table 7");

    HttpResponse<String> noStore = migrate("{\"target\":\"5\"}");
    assertThat(noStore.statusCode()).isEqualTo(404);
    assertThat(noStore.body()).contains("no store 5");

    HttpResponse<String> noTarget = migrate("{}");
    assertThat(noTarget.statusCode()).isEqualTo(400);
    assertThat(noTarget.body()).contains("name the target store");

    HttpResponse<String> badPage = migrate("{\"target\":\"1\",\"pageSize\":\"0\"}");
    assertThat(badPage.statusCode()).isEqualTo(400);
    assertThat(badPage.body()).contains("page size must be 1 to 10000");

    assertThat(targetDriver.batches.get()).isZero();
    assertThat(target.table(ConsoleFixture.SPEC).queryAll(Query.partition("ada").build()).count())
        .isZero();
  }

  /** Every source item is in the target, decoded equal, and was written there exactly once. */
  private void assertTargetHoldsEveryItemOnce() {
    Table copy = target.table(ConsoleFixture.SPEC);
    for (int i = 0; i < ConsoleFixture.ORDERS; i++) {
      assertThat(copy.get(ConsoleFixture.key(i))).contains(ConsoleFixture.order(i));
    }
    Item zoe =
        copy.get(
                Key.of(
                    dev.stowage.item.AttributeValue.of("zoe"),
                    dev.stowage.item.AttributeValue.of(1)))
            .orElseThrow();
    assertThat(zoe.getString("scan")).isEqualTo("x".repeat(450_000));
    assertThat(targetDriver.puts).hasSize(ITEMS);
    assertThat(targetDriver.puts.values()).as("no item written twice").allMatch(n -> n.get() == 1);
  }

  private HttpResponse<String> migrate(String body) throws Exception {
    return post("api/tables/0/migrate-job", body);
  }

  private HttpResponse<String> post(String path) throws Exception {
    return post(path, "{}");
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(console.url() + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String id(HttpResponse<String> started) {
    assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
    return started.body().replaceAll(".*\"id\":\"(\\d+)\".*", "$1");
  }

  private String waitFor(String job, String regex) throws Exception {
    java.util.regex.Pattern p = java.util.regex.Pattern.compile(regex);
    String body = "";
    for (int i = 0; i < 400; i++) {
      body =
          http.send(
                  HttpRequest.newBuilder(URI.create(console.url() + "api/jobs/" + job)).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      if (p.matcher(body).find()) {
        return body;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("job never matched " + regex + ": " + body);
  }

  /** The first value of {@code field} (the job's own; its segments have fields of their own). */
  private static long number(String json, String field) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"" + field + "\":(\\d+)").matcher(json);
    assertThat(m.find()).as(field + " in " + json).isTrue();
    return Long.parseLong(m.group(1));
  }
}
