package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.ThrottledException.Access;
import dev.stowage.ThrottledException.Reason;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.WireFaults;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Azurite never throttles, so a policy in the client's HTTP pipeline answers chosen requests with
 * the Table service's own 503 ServerBusy (for a partition, and for the account's limits) and 500
 * OperationTimedOut responses, status, headers and JSON body, which the Azure SDK parses as it
 * would the service's. (A proxy would do too, but Azurite refuses proxied requests' signatures.)
 */
class ThrottlingOnTheWireTest {
  private final InjectedResponses wire = new InjectedResponses();
  private Stowage store;

  @AfterEach
  void stop() {
    if (store != null) {
      store.close();
    }
  }

  private Table open(boolean adaptive, int attempts, boolean indexed) {
    store =
        Stowage.builder(AzureTablesDriver.of(AzuriteClients.fastRetrying().addPolicy(wire)))
            .namespace(Emulators.shared().newNamespace())
            .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(5)))
            .adaptiveRateLimiting(adaptive)
            .capacityMetrics(true) // read by the capacity test
            .build();
    TableSpec.Builder spec =
        TableSpec.builder(
            "orders", KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER));
    if (indexed) {
      spec.index("byStatus", List.of("status"), List.of("n"));
    }
    return store.ensureTable(spec.build());
  }

  /** Requests on entities (not the service's table operations). */
  private static boolean entity(HttpRequest r) {
    String path = r.getUrl().getPath();
    return !path.endsWith("/Tables") && !path.contains("/Tables(");
  }

  /** The Table service's JSON error, as sent for a busy partition. */
  private static WireFaults.Response serverBusyJson() {
    String body =
        "{\"odata.error\":{\"code\":\"ServerBusy\",\"message\":{\"lang\":\"en-US\",\"value\":"
            + "\"The server is currently unable to receive requests. Please retry your request."
            + "\\nRequestId:0c0b5b8e-0002-0041-7a2b-4e1e2b000000"
            + "\\nTime:2026-11-24T06:00:00.0000000Z\"}}}";
    return WireFaults.Response.of(
        503,
        "application/json;odata=minimalmetadata",
        body,
        Map.of("x-ms-error-code", "ServerBusy", "x-ms-version", "2019-02-02"));
  }

  /** The storage front end's XML error for an account over its scalability target. */
  private static WireFaults.Response accountLimitJson() {
    String body =
        "{\"odata.error\":{\"code\":\"ServerBusy\",\"message\":{\"lang\":\"en-US\","
            + "\"value\":\"Egress is over the account limit."
            + "\\nRequestId:0c0b5b8e-0002-0041-7a2b-4e1e2b000001"
            + "\\nTime:2026-11-24T06:00:00.0000000Z\"}}}";
    return WireFaults.Response.of(
        503,
        "application/json;odata=minimalmetadata",
        body,
        Map.of("x-ms-error-code", "ServerBusy", "Retry-After", "1"));
  }

  private static WireFaults.Response operationTimedOut() {
    String body =
        "{\"odata.error\":{\"code\":\"OperationTimedOut\",\"message\":{\"lang\":\"en-US\","
            + "\"value\":\"Operation could not be completed within the specified time.\"}}}";
    return WireFaults.Response.of(
        500,
        "application/json;odata=minimalmetadata",
        body,
        Map.of("x-ms-error-code", "OperationTimedOut"));
  }

  private static Item order(String user, long n) {
    return Item.builder().put("user", user).put("n", n).put("status", "open").build();
  }

  private StowageMetrics.TableMetrics metrics() {
    return store.metrics().table(store.namespace(), "orders").orElseThrow();
  }

  @Test
  void aBusyPartitionIsRetriedCountedAndExplained() {
    Table t = open(false, 3, true);
    wire.failNext(2, ThrottlingOnTheWireTest::entity, serverBusyJson());
    t.put(order("u1", 1));
    assertThat(wire.faulted()).hasSize(2);
    assertThat(t.get(Key.of("u1", 1))).as("the retried put landed").isPresent();
    StowageMetrics.TableMetrics m = metrics();
    assertThat(m.operation("put").throttled()).isEqualTo(2);
    assertThat(m.retries()).isEqualTo(2);
    assertThat(m.throttledByReason()).containsEntry(Reason.HOT_PARTITION, 2L);

    wire.failNext(3, ThrottlingOnTheWireTest::entity, serverBusyJson());
    assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.HOT_PARTITION);
              assertThat(e.access()).isEqualTo(Access.READ);
              assertThat(e.resource()).contains("partition");
              assertThat(e.partitionKey()).contains(AttributeValue.of("u1"));
              assertThat(e.getMessage()).contains("ServerBusy").contains("write sharding");
            });
    assertThat(metrics().throttledByReason()).containsEntry(Reason.HOT_PARTITION, 5L);
  }

  @Test
  void theAccountLimitIsToldFromAPartition() {
    Table t = open(false, 1, false);
    wire.failNext(1, ThrottlingOnTheWireTest::entity, accountLimitJson());
    assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.ACCOUNT_LIMIT);
              assertThat(e.access()).isEqualTo(Access.READ);
              assertThat(e.retryAfter()).contains(Duration.ofSeconds(1));
              assertThat(e.getMessage()).contains("quota");
            });
    assertThat(metrics().throttledByReason()).containsEntry(Reason.ACCOUNT_LIMIT, 1L);
  }

  @Test
  void operationTimedOutIsUnavailableNotThrottled() {
    Table t = open(false, 1, false);
    wire.failNext(1, ThrottlingOnTheWireTest::entity, operationTimedOut());
    assertThatThrownBy(() -> t.get(Key.of("u1", 1))).isInstanceOf(UnavailableException.class);
    StowageMetrics.TableMetrics m = metrics();
    assertThat(m.operation("get").errors()).isEqualTo(1);
    assertThat(m.operation("get").throttled()).isZero();
    assertThat(m.throttled()).isZero();
  }

  @Test
  void adaptiveRateLimitingSlowsATableDownOnThrottles() {
    Table t = open(true, 8, false);
    for (int i = 0; i < 10; i++) {
      t.put(order("warm", i));
    }
    assertThat(metrics().rateLimit()).isInfinite();
    wire.failNext(3, ThrottlingOnTheWireTest::entity, serverBusyJson());
    t.put(order("u1", 1));
    assertThat(metrics().rateLimit()).isFinite().isPositive();
  }

  @Test
  void storageTransactionsAreCountedPerRequest() {
    Table t = open(false, 1, false);
    // Opening and first using the table read (and created) its metadata entity: billed too, so
    // count from a warmed-up table.
    t.put(order("warm", 1));
    t.get(Key.of("warm", 1));
    StowageMetrics.CapacityMetrics before = metrics().totalCapacity();
    t.get(Key.of("warm", 1));
    StowageMetrics.CapacityMetrics afterGet = metrics().totalCapacity();
    assertThat(afterGet.readUnits() - before.readUnits()).as("a get is one read").isEqualTo(1);
    for (int i = 0; i < 3; i++) {
      t.put(order("u1", i));
    }
    StowageMetrics.CapacityMetrics afterPuts = metrics().totalCapacity();
    assertThat(afterPuts.writeUnits() - afterGet.writeUnits()).as("three puts").isEqualTo(3);
    t.batchPut(List.of(order("u2", 1), order("u2", 2), order("u2", 3)));
    StowageMetrics.CapacityMetrics afterBatch = metrics().totalCapacity();
    assertThat(afterBatch.writeUnits() - afterPuts.writeUnits())
        .as("a batch of three is one transaction")
        .isEqualTo(1);
    t.delete(Key.of("u1", 2));
    StowageMetrics.CapacityMetrics afterDelete = metrics().totalCapacity();
    assertThat(afterDelete.deleteUnits() - afterBatch.deleteUnits()).isEqualTo(1);
    assertThat(afterDelete.readUnits() - afterBatch.readUnits())
        .as("the delete read the item it removes first")
        .isEqualTo(1);
  }

  /**
   * Answers chosen requests with a canned service response instead of sending them (the response
   * formats of {@link WireFaults.Response}); thread-safe.
   */
  static final class InjectedResponses implements HttpPipelinePolicy {
    private final Deque<Object[]> faults = new ArrayDeque<>();
    private final List<HttpRequest> faulted = new ArrayList<>();

    synchronized void failNext(int times, Predicate<HttpRequest> which, WireFaults.Response r) {
      faults.add(new Object[] {new int[] {times}, which, r});
    }

    synchronized List<HttpRequest> faulted() {
      return List.copyOf(faulted);
    }

    @SuppressWarnings("unchecked")
    private synchronized WireFaults.Response take(HttpRequest request) {
      for (Object[] f : faults) {
        int[] left = (int[]) f[0];
        if (left[0] > 0 && ((Predicate<HttpRequest>) f[1]).test(request)) {
          left[0]--;
          faulted.add(request);
          return (WireFaults.Response) f[2];
        }
      }
      return null;
    }

    @Override
    public Mono<HttpResponse> process(
        HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      WireFaults.Response r = take(context.getHttpRequest());
      return r == null ? next.process() : Mono.just(new Canned(context.getHttpRequest(), r));
    }
  }

  /** A service response as the SDK receives it. */
  static final class Canned extends HttpResponse {
    private final WireFaults.Response response;
    private final HttpHeaders headers = new HttpHeaders();

    Canned(HttpRequest request, WireFaults.Response response) {
      super(request);
      this.response = response;
      response.headers().forEach((k, v) -> headers.set(HttpHeaderName.fromString(k), v));
    }

    @Override
    public int getStatusCode() {
      return response.status();
    }

    @Override
    public String getHeaderValue(String name) {
      return headers.getValue(HttpHeaderName.fromString(name));
    }

    @Override
    public HttpHeaders getHeaders() {
      return headers;
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      return Flux.just(ByteBuffer.wrap(response.body()));
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return Mono.just(response.body());
    }

    @Override
    public Mono<String> getBodyAsString() {
      return Mono.just(new String(response.body(), StandardCharsets.UTF_8));
    }

    @Override
    public Mono<String> getBodyAsString(java.nio.charset.Charset charset) {
      return Mono.just(new String(response.body(), charset));
    }
  }
}
