package dev.stowage.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A local HTTP proxy in front of an emulator that answers chosen requests itself with an error
 * response, status, headers and body as the real service sends them, and forwards everything else.
 * The emulators never throttle; pointed at this proxy, a backend's own SDK receives and parses its
 * real throttling errors, so a driver's translation of them is tested end to end. Thread-safe.
 *
 * <pre>{@code
 * try (WireFaults wire = WireFaults.start(emulatorEndpoint)) {
 *   wire.failNext(2, r -> r.header("X-Amz-Target").endsWith("PutItem"), WireFaults.Response.json(400, body));
 *   // build the client on wire.endpoint() ...
 * }
 * }</pre>
 */
public final class WireFaults implements AutoCloseable {
  private static final Set<String> HOP_BY_HOP =
      Set.of(
          "connection",
          "content-length",
          "expect",
          "host",
          "upgrade",
          "transfer-encoding",
          "keep-alive",
          "date");

  private final HttpServer server;
  private final URI upstream;
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10))
          .build();
  private final Deque<Fault> faults = new ArrayDeque<>();
  private final List<Request> faulted = new CopyOnWriteArrayList<>();
  private final AtomicInteger forwarded = new AtomicInteger();

  private WireFaults(URI upstream) throws IOException {
    this.upstream = upstream;
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "wire-faults");
              t.setDaemon(true);
              return t;
            }));
    server.start();
  }

  /**
   * Starts a proxy forwarding to {@code upstream} (scheme, host and port; its path is ignored).
   *
   * @throws IllegalStateException if no local port can be opened
   */
  public static WireFaults start(URI upstream) {
    try {
      return new WireFaults(upstream);
    } catch (IOException e) {
      throw new IllegalStateException("cannot open a local port for the proxy", e);
    }
  }

  /** The proxy's base address, {@code http://127.0.0.1:port}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** {@code host:port} of the proxy. */
  public String hostPort() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * Answers the next {@code times} requests that match {@code which} with {@code response} instead
   * of forwarding them.
   */
  public synchronized WireFaults failNext(int times, Predicate<Request> which, Response response) {
    faults.add(new Fault(times, which, response));
    return this;
  }

  /** Forgets faults not yet used up. */
  public synchronized void clear() {
    faults.clear();
  }

  /** Requests answered with a fault so far. */
  public List<Request> faulted() {
    return List.copyOf(faulted);
  }

  /** Requests forwarded so far. */
  public int forwarded() {
    return forwarded.get();
  }

  private synchronized Response faultFor(Request r) {
    for (Fault f : faults) {
      if (f.left > 0 && f.which.test(r)) {
        f.left--;
        if (f.left == 0) {
          faults.remove(f);
        }
        return f.response;
      }
    }
    return null;
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      byte[] body = ex.getRequestBody().readAllBytes();
      Request r =
          new Request(ex.getRequestMethod(), ex.getRequestURI(), ex.getRequestHeaders(), body);
      Response fault = faultFor(r);
      if (fault != null) {
        faulted.add(r);
        fault.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        ex.sendResponseHeaders(fault.status(), fault.body().length == 0 ? -1 : fault.body().length);
        if (fault.body().length > 0) {
          try (OutputStream out = ex.getResponseBody()) {
            out.write(fault.body());
          }
        }
        return;
      }
      forwarded.incrementAndGet();
      forward(ex, r);
    }
  }

  private void forward(HttpExchange ex, Request r) throws IOException {
    URI target =
        URI.create(
            upstream.getScheme()
                + "://"
                + upstream.getRawAuthority()
                + ex.getRequestURI().getRawPath()
                + (ex.getRequestURI().getRawQuery() == null
                    ? ""
                    : "?" + ex.getRequestURI().getRawQuery()));
    HttpRequest.Builder b =
        HttpRequest.newBuilder(target)
            .method(
                r.method(),
                r.body().length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(r.body()));
    r.headers()
        .forEach(
            (k, vs) -> {
              if (!HOP_BY_HOP.contains(k.toLowerCase(Locale.ROOT))) {
                vs.forEach(v -> b.header(k, v));
              }
            });
    HttpResponse<InputStream> resp;
    try {
      resp = client.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    resp.headers()
        .map()
        .forEach(
            (k, vs) -> {
              String lower = k.toLowerCase(Locale.ROOT);
              if (!HOP_BY_HOP.contains(lower) && !lower.equals("date") && !k.startsWith(":")) {
                vs.forEach(v -> ex.getResponseHeaders().add(k, v));
              }
            });
    byte[] out;
    try (InputStream in = resp.body()) {
      out = in.readAllBytes();
    }
    boolean noBody = out.length == 0 || r.method().equals("HEAD");
    ex.sendResponseHeaders(resp.statusCode(), noBody ? -1 : out.length);
    if (!noBody) {
      try (OutputStream o = ex.getResponseBody()) {
        o.write(out);
      }
    }
  }

  /** Stops the proxy. */
  @Override
  public void close() {
    server.stop(0);
  }

  private static final class Fault {
    int left;
    final Predicate<Request> which;
    final Response response;

    Fault(int left, Predicate<Request> which, Response response) {
      this.left = left;
      this.which = which;
      this.response = response;
    }
  }

  /**
   * A request as it reached the proxy.
   *
   * @param method the HTTP method
   * @param uri the request URI (path and query)
   * @param headers its headers
   * @param body its body
   */
  public record Request(String method, URI uri, Map<String, List<String>> headers, byte[] body) {
    /** The first value of a header (case-insensitive), or "". */
    public String header(String name) {
      for (var e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
          return e.getValue().get(0);
        }
      }
      return "";
    }

    /** The body as UTF-8 text. */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * A response the proxy sends instead of forwarding.
   *
   * @param status the HTTP status
   * @param headers headers to send
   * @param body the body
   */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    /** A response with a body of {@code contentType}. */
    public static Response of(
        int status, String contentType, String body, Map<String, String> headers) {
      var h = new java.util.LinkedHashMap<String, String>(headers);
      h.put("Content-Type", contentType);
      return new Response(status, Map.copyOf(h), body.getBytes(StandardCharsets.UTF_8));
    }
  }
}
