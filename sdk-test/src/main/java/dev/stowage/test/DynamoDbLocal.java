package dev.stowage.test;

import dev.stowage.test.internal.Ports;
import dev.stowage.test.internal.Reflect;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB Local running in memory inside the test JVM, on a free port. Obtained from {@link
 * Emulators#dynamoDb()}; shared by the test run and stopped at its end. Thread-safe.
 *
 * <p>Needs {@code com.amazonaws:DynamoDBLocal} and {@code software.amazon.awssdk:dynamodb} on the
 * test class path. DynamoDB Local enforces DynamoDB's 400 KB item limit.
 */
public final class DynamoDbLocal {
  static final String INSTALL =
      "Add com.amazonaws:DynamoDBLocal (version from dev.stowage:stowage-bom) with test scope.";

  // Reached by name: the DynamoDB Local jar bundles Kotlin's module descriptor, so it cannot be
  // required as a module; it is always on the test class path.
  static final String SERVER_RUNNER = "com.amazonaws.services.dynamodbv2.local.main.ServerRunner";

  /** The running {@code DynamoDBProxyServer}. */
  private final Object server;

  private final URI endpoint;
  private final DynamoDbClient client;

  private DynamoDbLocal(Object server, int port) {
    this.server = server;
    this.endpoint = URI.create("http://127.0.0.1:" + port);
    this.client = newClient();
  }

  static DynamoDbLocal start() {
    Exception last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      int port = Ports.free();
      Object server = null;
      try {
        server =
            Reflect.callStatic(
                SERVER_RUNNER,
                "createServerFromCommandLineArgs",
                new Class<?>[] {String[].class},
                (Object)
                    new String[] {
                      "-inMemory", "-port", Integer.toString(port), "-disableTelemetry"
                    });
        Reflect.call(server, "start", new Class<?>[0]);
        return new DynamoDbLocal(server, port);
      } catch (Exception e) {
        // Most likely another process took the port between our probe and the bind: try another.
        last = e;
        stopQuietly(server);
      }
    }
    throw new EmulatorStartException(
        "DynamoDB Local failed to start (" + last + "). " + INSTALL, last);
  }

  /**
   * The endpoint, {@code http://127.0.0.1:port}.
   *
   * @return the endpoint to give a DynamoDB client
   */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * A client on this emulator shared by the test run; do not close it.
   *
   * @return the shared client
   */
  public DynamoDbClient client() {
    return client;
  }

  /**
   * A new client on this emulator (region us-east-1, dummy credentials); the caller closes it.
   *
   * @return a new client
   */
  public DynamoDbClient newClient() {
    return DynamoDbClient.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .build();
  }

  void stop() {
    client.close();
    stopQuietly(server);
  }

  private static void stopQuietly(Object server) {
    if (server != null) {
      try {
        Reflect.call(server, "stop", new Class<?>[0]);
      } catch (Exception e) {
        System.err.println("[stowage-test] stopping DynamoDB Local failed: " + e);
      }
    }
  }
}
