package dev.stowage.bench;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local 2.6.1 running inside the benchmark JVM, in memory, on a free loopback port, with
 * one {@link DynamoDbClient} over HTTP that every side of a benchmark shares (same connection pool,
 * same HTTP client). A JVM shutdown hook stops it if {@link #close()} was not reached.
 *
 * <p>Not thread-safe to start or stop; the client is thread-safe.
 */
public final class DynamoLocal implements AutoCloseable {
  private final DynamoDBProxyServer server;
  private final DynamoDbClient client;
  private final Thread hook;
  private boolean closed;

  private DynamoLocal(DynamoDBProxyServer server, DynamoDbClient client) {
    this.server = server;
    this.client = client;
    this.hook = new Thread(this::stopQuietly, "stop-dynamodb-local");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts DynamoDB Local.
   *
   * @throws IllegalStateException if it cannot start, saying what is missing
   */
  public static DynamoLocal start() {
    return start(null);
  }

  /**
   * Starts DynamoDB Local with {@code extra} added to the client after the request counter (for
   * example a {@link ModelledRoundTrip}), or none if it is null.
   *
   * @throws IllegalStateException if it cannot start, saying what is missing
   */
  public static DynamoLocal start(ExecutionInterceptor extra) {
    int port = freePort();
    DynamoDBProxyServer server;
    try {
      server =
          ServerRunner.createServerFromCommandLineArgs(
              new String[] {"-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
      server.start();
    } catch (Exception e) {
      throw new IllegalStateException(
          "DynamoDB Local (com.amazonaws:DynamoDBLocal:2.6.1, shaded into benchmarks.jar) failed to"
              + " start on port "
              + port
              + "; it needs its bundled sqlite4java native library for this platform",
          e);
    }
    DynamoDbClient client =
        DynamoDbClient.builder()
            .endpointOverride(URI.create("http://127.0.0.1:" + port))
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .httpClient(Apache5HttpClient.create())
            .overrideConfiguration(
                c -> {
                  c.addExecutionInterceptor(COUNTER);
                  if (extra != null) {
                    c.addExecutionInterceptor(extra);
                  }
                })
            .build();
    return new DynamoLocal(server, client);
  }

  /** Counts requests per operation name (GetItem, PutItem, ...) on every client built here. */
  public static final class RequestCounter implements ExecutionInterceptor {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    @Override
    public void beforeTransmission(
        Context.BeforeTransmission context, ExecutionAttributes attributes) {
      String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
      counts.computeIfAbsent(op, k -> new LongAdder()).increment();
    }

    /** Requests sent so far, by operation name. */
    public Map<String, Long> snapshot() {
      Map<String, Long> out = new TreeMap<>();
      counts.forEach((k, v) -> out.put(k, v.sum()));
      return out;
    }
  }

  /** The request counter of the clients built here. */
  public static final RequestCounter COUNTER = new RequestCounter();

  /** The shared client on DynamoDB Local. */
  public DynamoDbClient client() {
    return client;
  }

  @Override
  public void close() {
    stopQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or has run; nothing left to remove.
    }
  }

  private synchronized void stopQuietly() {
    if (closed) {
      return;
    }
    closed = true;
    client.close();
    try {
      server.stop();
    } catch (Exception e) {
      System.err.println("stopping DynamoDB Local failed: " + e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free local port", e);
    }
  }
}
