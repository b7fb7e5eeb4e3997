package dev.stowage.cli.crossbackend;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The emulators of the cross-backend migration test, started the way the driver modules' tests
 * start them (see VERSIONS.md): DynamoDB Local in this JVM, the Firestore emulator in Datastore
 * mode as a child process stopped with {@code POST /shutdown}, Azurite as a child process. All are
 * stopped at JVM exit too.
 */
final class Emulators {
  static final Path FIRESTORE_JAR =
      Path.of(
          "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar");

  private Emulators() {}

  /** DynamoDB Local on a free port. */
  static final class DynamoLocal implements AutoCloseable {
    final URI endpoint;
    private final DynamoDBProxyServer server;

    DynamoLocal() {
      int port = freePort();
      try {
        server =
            ServerRunner.createServerFromCommandLineArgs(
                new String[] {"-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
        server.start();
      } catch (Exception e) {
        throw new IllegalStateException(
            "DynamoDB Local (com.amazonaws:DynamoDBLocal, test scope) failed to start", e);
      }
      endpoint = URI.create("http://127.0.0.1:" + port);
      Runtime.getRuntime().addShutdownHook(new Thread(this::close, "stop-dynamodb-local"));
    }

    @Override
    public synchronized void close() {
      try {
        server.stop();
      } catch (Exception e) {
        // already stopped
      }
    }
  }

  /** The Firestore emulator in Datastore mode on a free port. */
  static final class Firestore implements AutoCloseable {
    final int port;
    private final Process process;

    Firestore() {
      if (!Files.isReadable(FIRESTORE_JAR)) {
        throw new IllegalStateException(
            "the Firestore emulator is not installed at "
                + FIRESTORE_JAR
                + "; install the Debian package google-cloud-cli-firestore-emulator");
      }
      port = freePort();
      try {
        Path log = Files.createTempFile("firestore-emulator", ".log");
        log.toFile().deleteOnExit();
        process =
            new ProcessBuilder(
                    List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        FIRESTORE_JAR.toString(),
                        "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
                        "start",
                        "--host=localhost",
                        "--port=" + port,
                        "--database-mode=datastore-mode"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::close, "stop-firestore-emulator"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!ready()) {
          if (!process.isAlive() || System.nanoTime() > deadline) {
            close();
            throw new IllegalStateException(
                "the Firestore emulator did not start:\n" + Files.readString(log));
          }
          Thread.sleep(100);
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot start the Firestore emulator", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }

    String hostPort() {
      return "localhost:" + port;
    }

    private boolean ready() {
      try {
        HttpURLConnection c =
            (HttpURLConnection)
                URI.create("http://localhost:" + port + "/").toURL().openConnection();
        c.setConnectTimeout(200);
        return c.getResponseCode() > 0;
      } catch (IOException e) {
        return false;
      }
    }

    @Override
    public synchronized void close() {
      if (process.isAlive()) {
        try {
          HttpURLConnection c =
              (HttpURLConnection)
                  URI.create("http://localhost:" + port + "/shutdown").toURL().openConnection();
          c.setRequestMethod("POST");
          c.setConnectTimeout(500);
          c.getResponseCode();
          process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException | InterruptedException e) {
          // fall through to destroy
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
      }
    }
  }

  /** Azurite (tables and blobs, in memory) from this module's node_modules, on free ports. */
  static final class Azurite implements AutoCloseable {
    private static final String KEY =
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
    private final Process process;
    private final int blobPort = freePort();
    private final int tablePort = freePort();
    private final int queuePort = freePort();

    Azurite() {
      Path bin = Path.of("node_modules", ".bin", "azurite").toAbsolutePath();
      if (!Files.isExecutable(bin)) {
        throw new IllegalStateException(
            "Azurite is not installed at "
                + bin
                + ". The build installs it with npm ci in sdk-cli (generate-test-resources);"
                + " install Node.js 18+ with npm (Debian: apt-get install nodejs npm).");
      }
      try {
        Files.createDirectories(Path.of("target"));
        process =
            new ProcessBuilder(
                    List.of(
                        bin.toString(),
                        "--silent",
                        "--inMemoryPersistence",
                        "--blobHost",
                        "127.0.0.1",
                        "--blobPort",
                        String.valueOf(blobPort),
                        "--tableHost",
                        "127.0.0.1",
                        "--tablePort",
                        String.valueOf(tablePort),
                        "--queueHost",
                        "127.0.0.1",
                        "--queuePort",
                        String.valueOf(queuePort),
                        "--skipApiVersionCheck",
                        "--disableTelemetry"))
                .redirectErrorStream(true)
                .redirectOutput(Path.of("target", "azurite.log").toFile())
                .start();
      } catch (IOException e) {
        throw new IllegalStateException("could not start Azurite: is Node.js 18+ on the PATH?", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(this::close, "stop-azurite"));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!(listening(blobPort) && listening(tablePort))) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          close();
          throw new IllegalStateException("Azurite did not start; see sdk-cli/target/azurite.log");
        }
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
      }
    }

    String connectionString() {
      return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
          + KEY
          + ";BlobEndpoint=http://127.0.0.1:"
          + blobPort
          + "/devstoreaccount1;TableEndpoint=http://127.0.0.1:"
          + tablePort
          + "/devstoreaccount1;";
    }

    private static boolean listening(int port) {
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    @Override
    public synchronized void close() {
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
    }
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
