package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.ThrottledException.Access;
import dev.stowage.ThrottledException.Reason;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.DatastoreEmulator;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.WireFaults;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Datastore emulator never throttles, so a proxy in front of it answers chosen requests with
 * the service's own JSON errors ({@code RESOURCE_EXHAUSTED} for quotas and load shedding, {@code
 * ABORTED} for contention), which the client's HTTP transport parses as it would the service's.
 */
class ThrottlingOnTheWireTest {
  private WireFaults wire;
  private Stowage store;

  @BeforeEach
  void start() {
    DatastoreEmulator emulator = Emulators.shared().datastore();
    wire = WireFaults.start(URI.create("http://" + emulator.hostPort()));
  }

  @AfterEach
  void stop() {
    if (store != null) {
      store.close();
    }
    wire.close();
  }

  private Table open(boolean adaptive, int attempts) {
    store =
        Stowage.builder(
                DatastoreDriver.builder()
                    .projectId(DatastoreEmulator.PROJECT_ID)
                    .emulatorHost(wire.hostPort())
                    .build())
            .namespace(Emulators.shared().newNamespace())
            .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(5)))
            .adaptiveRateLimiting(adaptive)
            .capacityMetrics(true) // read by the capacity test
            .build();
    return store.ensureTable(
        TableSpec.builder(
                "orders", KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER))
            .build());
  }

  /**
   * A Google API error as the service sends it to the client's HTTP transport, which speaks
   * protobuf: the HTTP status and a {@code google.rpc.Status} body (field 1 the canonical code,
   * field 2 the message), encoded here by hand.
   */
  private static WireFaults.Response error(int httpStatus, String status, String message) {
    int code =
        switch (status) {
          case "RESOURCE_EXHAUSTED" -> 8;
          case "ABORTED" -> 10;
          default -> throw new IllegalArgumentException(status);
        };
    byte[] text = message.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.write(0x08);
    body.write(code);
    body.write(0x12);
    int n = text.length;
    while (n >= 0x80) {
      body.write((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    body.write(n);
    body.writeBytes(text);
    return new WireFaults.Response(
        httpStatus, Map.of("Content-Type", "application/x-protobuf"), body.toByteArray());
  }

  private static boolean call(WireFaults.Request r, String method) {
    return r.uri().getPath().endsWith(":" + method);
  }

  private static Item order(String user, long n) {
    return Item.builder().put("user", user).put("n", n).put("status", "open").build();
  }

  private StowageMetrics.TableMetrics metrics() {
    return store.metrics().table(store.namespace(), "orders").orElseThrow();
  }

  @Test
  void loadSheddingIsRetriedCountedAndExplained() {
    Table t = open(false, 4);
    wire.failNext(
        2,
        r -> call(r, "commit"),
        error(429, "RESOURCE_EXHAUSTED", "Too much load on the database; please retry later."));
    t.put(order("u1", 1));
    assertThat(wire.faulted()).hasSize(2);
    assertThat(t.get(Key.of("u1", 1))).isPresent();
    StowageMetrics.TableMetrics m = metrics();
    assertThat(m.operation("put").throttled()).isEqualTo(2);
    assertThat(m.retries()).isEqualTo(2);
    assertThat(m.throttledByReason()).containsEntry(Reason.SERVER_BUSY, 2L);
  }

  @Test
  void anExhaustedQuotaIsAnAccountLimit() {
    Table t = open(false, 2);
    wire.failNext(
        2,
        r -> call(r, "commit"),
        error(
            429,
            "RESOURCE_EXHAUSTED",
            "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per"
                + " minute' of service 'datastore.googleapis.com'."));
    assertThatThrownBy(() -> t.put(order("u2", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.ACCOUNT_LIMIT);
              assertThat(e.access()).isEqualTo(Access.WRITE);
              assertThat(e.partitionKey()).contains(AttributeValue.of("u2"));
              assertThat(e.getMessage()).contains("RESOURCE_EXHAUSTED").contains("quota increase");
            });
    assertThat(t.get(Key.of("u2", 1))).as("nothing was written").isEmpty();
    assertThat(metrics().throttledByReason()).containsEntry(Reason.ACCOUNT_LIMIT, 2L);
  }

  @Test
  void contentionIsAConflictRetriedAndCounted() {
    Table t = open(false, 4);
    wire.failNext(
        1,
        r -> call(r, "commit"),
        error(
            409, "ABORTED", "too much contention on these datastore entities. please try again."));
    t.put(order("u3", 1));
    assertThat(t.get(Key.of("u3", 1))).isPresent();
    StowageMetrics.TableMetrics m = metrics();
    assertThat(m.operation("put").conflicts()).isEqualTo(1);
    assertThat(m.operation("put").throttled()).isZero();
    assertThat(m.retries()).isEqualTo(1);
  }

  @Test
  void adaptiveRateLimitingSlowsATableDownOnThrottles() {
    Table t = open(true, 8);
    for (int i = 0; i < 10; i++) {
      t.put(order("warm", i));
    }
    assertThat(metrics().rateLimit()).isInfinite();
    wire.failNext(3, r -> call(r, "commit"), error(429, "RESOURCE_EXHAUSTED", "Too much load."));
    t.put(order("u1", 1));
    assertThat(metrics().rateLimit()).isFinite().isPositive();
  }

  @Test
  void entityOperationsAreCountedAsBilled() {
    Table t = open(false, 1);
    t.put(order("warm", 1));
    StowageMetrics.CapacityMetrics before = metrics().totalCapacity();
    t.get(Key.of("warm", 1));
    StowageMetrics.CapacityMetrics afterGet = metrics().totalCapacity();
    assertThat(afterGet.readUnits() - before.readUnits()).as("a lookup is one read").isEqualTo(1);
    for (int i = 0; i < 3; i++) {
      t.put(order("u1", i));
    }
    t.batchPut(List.of(order("u2", 1), order("u2", 2), order("u2", 3)));
    StowageMetrics.CapacityMetrics afterPuts = metrics().totalCapacity();
    assertThat(afterPuts.writeUnits() - afterGet.writeUnits())
        .as("one write per entity, batched or not")
        .isEqualTo(6);
    assertThat(t.query(dev.stowage.query.Query.partition("u2").limit(10).build()).items())
        .hasSize(3);
    StowageMetrics.CapacityMetrics afterQuery = metrics().totalCapacity();
    assertThat(afterQuery.readUnits() - afterPuts.readUnits())
        .as("one read per entity returned")
        .isEqualTo(3);
    t.delete(Key.of("u1", 2));
    assertThat(metrics().totalCapacity().deleteUnits() - afterQuery.deleteUnits()).isEqualTo(1);
  }
}
