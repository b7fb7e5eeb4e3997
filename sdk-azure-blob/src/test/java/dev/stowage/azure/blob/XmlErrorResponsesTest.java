package dev.stowage.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.stowage.InvalidRequestException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.overflow.BlobStore;
import dev.stowage.test.Emulators;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Blob service always answers errors in XML ({@code <Error><Code>…</Code>…}). A policy in the
 * client's pipeline answers chosen requests with such a response (Azurite is never busy), which the
 * real SDK parses; the store must translate it, and the SDK's own retries must get past a busy
 * server.
 */
class XmlErrorResponsesTest {
  private final Injected wire = new Injected();

  private AzureBlobStore store(int sdkRetries) {
    BlobContainerClient container =
        new BlobServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            .retryOptions(new RetryOptions(new FixedDelayOptions(sdkRetries, Duration.ofMillis(1))))
            .addPolicy(wire)
            .buildClient()
            .getBlobContainerClient("xmlerrors");
    container.createIfNotExists();
    return AzureBlobStore.of(container, "x/");
  }

  private static String xml(String code, String message) {
    return "\uFEFF<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"
        + code
        + "</Code><Message>"
        + message
        + "\nRequestId:0c0b5b8e-0002-0041-7a2b-4e1e2b000003"
        + "\nTime:2026-11-24T06:00:00.0000000Z</Message></Error>";
  }

  @Test
  void aBusyServerIsRetriedByTheSdkThenThrottled() {
    AzureBlobStore retrying = store(3);
    wire.failNext(2, "PUT", 503, "ServerBusy", xml("ServerBusy", "The server is busy."));
    retrying.put("a", new byte[] {1, 2});
    assertThat(wire.faulted.get()).isEqualTo(2);
    assertThat(retrying.get("a")).hasValueSatisfying(b -> assertThat(b).containsExactly(1, 2));

    AzureBlobStore once = store(0);
    wire.failNext(1, "PUT", 503, "ServerBusy", xml("ServerBusy", "The server is busy."));
    assertThatThrownBy(() -> once.put("b", new byte[] {3}))
        .isInstanceOf(ThrottledException.class)
        .hasMessageContaining("503")
        .hasMessageContaining("ServerBusy");
  }

  @Test
  void authenticationAndInternalErrorsAreTranslated() {
    AzureBlobStore s = store(0);
    wire.failNext(
        1,
        "PUT",
        403,
        "AuthenticationFailed",
        xml("AuthenticationFailed", "Server failed to authenticate the request."));
    assertThatThrownBy(() -> s.put("c", new byte[] {4}))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("403")
        .hasMessageContaining("AuthenticationFailed");

    s.put("d", new byte[] {5});
    wire.failNext(
        1,
        "GET|HEAD",
        500,
        "InternalError",
        xml("InternalError", "The server encountered an error."));
    assertThatThrownBy(() -> s.get("d"))
        .as("a failed read is not taken for a missing blob")
        .isInstanceOf(UnavailableException.class)
        .hasMessageContaining("InternalError");
  }

  @Test
  void listingErrorsAreTranslatedWhileTheStreamIsRead() {
    AzureBlobStore s = store(0);
    s.put("l/1", new byte[] {6});
    wire.failNext(1, "GET", 503, "ServerBusy", xml("ServerBusy", "The server is busy."));
    assertThatThrownBy(
            () -> {
              try (var blobs = s.list("l/")) {
                blobs.toList();
              }
            })
        .isInstanceOf(ThrottledException.class)
        .hasMessageContaining("listing blobs under l/");
    try (var blobs = s.list("l/")) {
      assertThat(blobs.map(BlobStore.BlobInfo::key).toList()).containsExactly("l/1");
    }
  }

  /** Answers the next requests of one method with a canned XML error; thread-safe. */
  static final class Injected implements HttpPipelinePolicy {
    final AtomicInteger faulted = new AtomicInteger();
    private final AtomicInteger left = new AtomicInteger();
    private final AtomicReference<Object[]> fault = new AtomicReference<>();

    void failNext(int times, String method, int status, String code, String body) {
      faulted.set(0);
      fault.set(new Object[] {method, status, code, body});
      left.set(times);
    }

    @Override
    public Mono<HttpResponse> process(
        HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      Object[] f = fault.get();
      HttpRequest request = context.getHttpRequest();
      if (f != null
          && request.getHttpMethod().name().matches((String) f[0])
          && left.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        faulted.incrementAndGet();
        return Mono.just(new Canned(request, (int) f[1], (String) f[2], (String) f[3]));
      }
      return next.process();
    }
  }

  /** A service response as the SDK receives it. */
  static final class Canned extends HttpResponse {
    private final int status;
    private final byte[] body;
    private final HttpHeaders headers = new HttpHeaders();

    Canned(HttpRequest request, int status, String code, String body) {
      super(request);
      this.status = status;
      this.body = body.getBytes(StandardCharsets.UTF_8);
      headers.set(HttpHeaderName.CONTENT_TYPE, "application/xml");
      headers.set(HttpHeaderName.fromString("x-ms-error-code"), code);
      headers.set(HttpHeaderName.fromString("x-ms-version"), "2025-11-05");
      headers.set(HttpHeaderName.CONTENT_LENGTH, String.valueOf(this.body.length));
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
