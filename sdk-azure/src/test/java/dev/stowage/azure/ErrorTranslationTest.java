package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import dev.stowage.KeySchema;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.spi.TableLayout;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Service errors the emulator cannot produce on demand (503 ServerBusy, 500 OperationTimedOut) are
 * injected as real HTTP responses by a pipeline policy; I/O failures come from a closed port.
 */
class ErrorTranslationTest {
  static final TableLayout TABLE = Layouts.layout(KeySchema.of("id", AttributeType.STRING));

  static AzureTablesDriver failingWith(int status, String code, String retryAfter) {
    var service =
        AzuriteClients.fastRetrying()
            .addPolicy(
                (context, next) ->
                    Mono.just(new Canned(context.getHttpRequest(), status, code, retryAfter)))
            .buildClient();
    return new AzureTablesDriver(service, WriteStep.Hook.NONE);
  }

  @Test
  void serverBusyIsThrottledWithTheRetryHint() {
    try (var driver = failingWith(503, "ServerBusy", "3")) {
      assertThatThrownBy(() -> driver.get(TABLE, Key.of("a"), true))
          .isInstanceOfSatisfying(
              ThrottledException.class,
              e -> {
                assertThat(e.retryAfter()).contains(Duration.ofSeconds(3));
                assertThat(e.retryable()).isTrue();
                assertThat(e.getCause()).isNotNull();
              });
    }
  }

  @Test
  void operationTimedOutIsUnavailable() {
    try (var driver = failingWith(500, "OperationTimedOut", null)) {
      assertThatThrownBy(
              () ->
                  driver.put(
                      TABLE,
                      dev.stowage.spi.StoredItems.of(
                          java.util.Map.of("id", AttributeValue.of("a"))),
                      dev.stowage.spi.Expectation.ANY,
                      false))
          .isInstanceOf(UnavailableException.class);
    }
  }

  @Test
  void unreachableServiceIsUnavailable() {
    String closed =
        "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
            + "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
            + ";TableEndpoint=http://127.0.0.1:1/devstoreaccount1;";
    try (var driver = AzureTablesDriver.fromConnectionString(closed)) {
      assertThatThrownBy(() -> driver.get(TABLE, Key.of("a"), true))
          .isInstanceOf(UnavailableException.class);
    }
  }

  /** A canned Azure Tables error response. */
  static final class Canned extends HttpResponse {
    private final int status;
    private final HttpHeaders headers = new HttpHeaders();
    private final byte[] body;

    Canned(HttpRequest request, int status, String code, String retryAfter) {
      super(request);
      this.status = status;
      headers.set(HttpHeaderName.CONTENT_TYPE, "application/json;odata=minimalmetadata");
      headers.set(HttpHeaderName.fromString("x-ms-error-code"), code);
      if (retryAfter != null) {
        headers.set(HttpHeaderName.RETRY_AFTER, retryAfter);
      }
      this.body =
          ("{\"odata.error\":{\"code\":\""
                  + code
                  + "\",\"message\":{\"lang\":\"en-US\",\"value\":\"injected\"}}}")
              .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int getStatusCode() {
      return status;
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
      return Flux.just(ByteBuffer.wrap(body));
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return Mono.just(body);
    }

    @Override
    public Mono<String> getBodyAsString() {
      return Mono.just(new String(body, StandardCharsets.UTF_8));
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return Mono.just(new String(body, charset));
    }
  }
}
