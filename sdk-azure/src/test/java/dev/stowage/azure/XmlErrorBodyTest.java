package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.StowageException;
import dev.stowage.StowageMetrics;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.ThrottledException;
import dev.stowage.ThrottledException.Access;
import dev.stowage.ThrottledException.Reason;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.WireFaults;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * The storage front end answers some failures (a busy server, a failed signature, an internal
 * error) with the XML error body every storage service shares, {@code Content-Type:
 * application/xml}, even to the Table service's JSON clients. The Tables SDK cannot parse that body
 * without Jackson's XML module; the driver must still say what happened, from the status and the
 * {@code x-ms-error-code} header, and never let a {@link LinkageError} out.
 */
class XmlErrorBodyTest {
  private final ThrottlingOnTheWireTest.InjectedResponses wire =
      new ThrottlingOnTheWireTest.InjectedResponses();
  private final BrokenSdk broken = new BrokenSdk();
  private Stowage store;

  @AfterEach
  void stop() {
    if (store != null) {
      store.close();
    }
  }

  private Table open(int attempts) {
    store =
        Stowage.builder(
                AzureTablesDriver.of(
                    AzuriteClients.fastRetrying().addPolicy(wire).addPolicy(broken)))
            .namespace(Emulators.shared().newNamespace())
            .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(1), Duration.ofMillis(5)))
            .build();
    return store.ensureTable(
        TableSpec.builder(
                "orders", KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER))
            .build());
  }

  private static boolean entity(HttpRequest r) {
    String path = r.getUrl().getPath();
    return !path.endsWith("/Tables") && !path.contains("/Tables(");
  }

  /** The storage services' XML error, as the front end sends it. */
  static WireFaults.Response xmlError(int status, String code, String message, String... more) {
    String body =
        "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"
            + code
            + "</Code><Message>"
            + message
            + "\nRequestId:0c0b5b8e-0002-0041-7a2b-4e1e2b000002"
            + "\nTime:2026-11-24T06:00:00.0000000Z</Message></Error>";
    var headers = new java.util.HashMap<String, String>();
    headers.put("x-ms-error-code", code);
    headers.put("x-ms-request-id", "0c0b5b8e-0002-0041-7a2b-4e1e2b000002");
    for (int i = 0; i + 1 < more.length; i += 2) {
      headers.put(more[i], more[i + 1]);
    }
    return WireFaults.Response.of(status, "application/xml", body, Map.copyOf(headers));
  }

  private static Item order(String user, long n) {
    return Item.builder().put("user", user).put("n", n).put("status", "open").build();
  }

  private StowageMetrics.TableMetrics metrics() {
    return store.metrics().table(store.namespace(), "orders").orElseThrow();
  }

  @Test
  void anXmlServerBusyIsAThrottleRetriedAndCounted() {
    Table t = open(3);
    wire.failNext(
        2,
        XmlErrorBodyTest::entity,
        xmlError(
            503,
            "ServerBusy",
            "The server is currently unable to receive requests. Please retry your request."));
    t.put(order("u1", 1));
    assertThat(wire.faulted()).hasSize(2);
    assertThat(t.get(Key.of("u1", 1))).as("the retried put landed").isPresent();
    assertThat(metrics().operation("put").throttled()).isEqualTo(2);
    assertThat(metrics().throttledByReason()).containsEntry(Reason.HOT_PARTITION, 2L);

    wire.failNext(
        3,
        XmlErrorBodyTest::entity,
        xmlError(503, "ServerBusy", "The server is busy.", "Retry-After", "2"));
    assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.HOT_PARTITION);
              assertThat(e.access()).isEqualTo(Access.READ);
              assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
              assertThat(e.getMessage()).contains("503").contains("ServerBusy");
            });
    assertThat(metrics().throttledByReason()).containsEntry(Reason.HOT_PARTITION, 5L);
  }

  @Test
  void anXmlAccountLimitIsToldFromAPartition() {
    Table t = open(1);
    wire.failNext(
        1,
        XmlErrorBodyTest::entity,
        xmlError(503, "ServerBusy", "Ingress is over the account limit."));
    assertThatThrownBy(() -> t.put(order("u1", 1)))
        .isInstanceOfSatisfying(
            ThrottledException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.ACCOUNT_LIMIT);
              assertThat(e.access()).isEqualTo(Access.WRITE);
            });
    assertThat(metrics().throttledByReason()).containsEntry(Reason.ACCOUNT_LIMIT, 1L);
  }

  @Test
  void anXmlAuthenticationFailureIsAClearInvalidRequestNotRetried() {
    Table t = open(3);
    wire.failNext(
        1,
        XmlErrorBodyTest::entity,
        xmlError(
            403,
            "AuthenticationFailed",
            "Server failed to authenticate the request. Make sure the value of Authorization"
                + " header is formed correctly including the signature."));
    assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("403")
        .hasMessageContaining("AuthenticationFailed")
        .hasMessageContaining("Server failed to authenticate the request");
    assertThat(wire.faulted()).as("not retried").hasSize(1);
  }

  @Test
  void anXmlInternalErrorIsUnavailable() {
    Table t = open(1);
    wire.failNext(
        1,
        XmlErrorBodyTest::entity,
        xmlError(500, "InternalError", "The server encountered an internal error."));
    assertThatThrownBy(() -> t.get(Key.of("u1", 1)))
        .isInstanceOf(UnavailableException.class)
        .hasMessageContaining("500")
        .hasMessageContaining("InternalError");
    assertThat(metrics().operation("get").errors()).isEqualTo(1);
    assertThat(metrics().throttled()).isZero();
  }

  @Test
  void xmlErrorsOnBatchesAndQueriesAreTranslatedToo() {
    Table t = open(1);
    wire.failNext(1, XmlErrorBodyTest::entity, xmlError(503, "ServerBusy", "The server is busy."));
    assertThatThrownBy(() -> t.batchPut(List.of(order("u2", 1), order("u2", 2))))
        .isInstanceOf(ThrottledException.class);
    wire.failNext(
        1, XmlErrorBodyTest::entity, xmlError(500, "InternalError", "An internal error."));
    assertThatThrownBy(() -> t.queryAll(Query.partition("u2").build()).toList())
        .isInstanceOf(UnavailableException.class);
    wire.failNext(
        1, XmlErrorBodyTest::entity, xmlError(403, "AuthorizationFailure", "Not authorized."));
    assertThatThrownBy(() -> t.delete(Key.of("u2", 1)))
        .isInstanceOf(StowageException.class)
        .hasMessageContaining("AuthorizationFailure");
  }

  @Test
  void aLinkageErrorInTheSdkNeverEscapes() {
    Table t = open(2);
    t.put(order("u3", 1));
    broken.next.set(2);
    assertThatThrownBy(() -> t.get(Key.of("u3", 1)))
        .as("what the SDK throws when Jackson's XML module is missing")
        .isInstanceOf(UnavailableException.class)
        .hasMessageContaining("jackson-dataformat-xml")
        .hasCauseInstanceOf(NoClassDefFoundError.class);
    broken.next.set(1);
    assertThat(t.get(Key.of("u3", 1))).as("retried like an unavailable service").isPresent();
    broken.next.set(4);
    assertThatThrownBy(() -> t.put(order("u3", 2))).isInstanceOf(UnavailableException.class);
    broken.next.set(4);
    assertThatThrownBy(() -> t.batchPut(List.of(order("u4", 1), order("u4", 2))))
        .isInstanceOf(UnavailableException.class);
    broken.next.set(0);
  }

  /**
   * Fails the next entity requests the way azure-core does when it cannot load Jackson's XML module
   * to read an error body.
   */
  static final class BrokenSdk implements HttpPipelinePolicy {
    final AtomicInteger next = new AtomicInteger();

    @Override
    public Mono<HttpResponse> process(
        HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      if (entity(context.getHttpRequest()) && this.next.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new NoClassDefFoundError(
            "Could not initialize class com.azure.core.util.serializer.JacksonAdapter$GlobalXmlMapper");
      }
      return next.process();
    }
  }
}
