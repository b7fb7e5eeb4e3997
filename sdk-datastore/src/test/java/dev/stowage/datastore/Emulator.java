package dev.stowage.datastore;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Datastore emulator run as a child process on a free port: the Firestore emulator in Datastore
 * mode (shared once per test JVM) or the legacy Datastore emulator (for composite-index checks).
 * Stopped with {@code POST /shutdown}, with process destruction and a JVM shutdown hook as
 * backstops.
 */
public final class Emulator implements AutoCloseable {
  static final String PLATFORM = "/usr/lib/google-cloud-sdk/platform/";
  static final Path FIRESTORE_JAR =
      Path.of(PLATFORM, "cloud-firestore-emulator", "cloud-firestore-emulator.jar");
  static final Path LEGACY_JAR =
      Path.of(PLATFORM, "cloud-datastore-emulator", "CloudDatastore.jar");

  private static Emulator shared;

  private final Process process;
  private final int port;
  private final Thread hook;

  private Emulator(List<String> command, int port, Path log) {
    this.port = port;
    try {
      this.process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
    this.hook = new Thread(this::stop, "datastore-emulator-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    awaitReady(log);
  }

  /** The Firestore emulator in Datastore mode, started on first use and stopped at JVM exit. */
  public static synchronized Emulator firestore() {
    if (shared == null) {
      require(FIRESTORE_JAR, "google-cloud-cli-firestore-emulator");
      int port = freePort();
      shared =
          new Emulator(
              List.of(
                  java(),
                  "-cp",
                  FIRESTORE_JAR.toString(),
                  "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
                  "start",
                  "--host=localhost",
                  "--port=" + port,
                  "--database-mode=datastore-mode"),
              port,
              tempLog("firestore-emulator"));
    }
    return shared;
  }

  /** A legacy Datastore emulator that refuses queries lacking a composite index in the file. */
  static Emulator legacyRequiringIndexes(Path indexYaml) {
    require(LEGACY_JAR, "google-cloud-cli-datastore-emulator");
    int port = freePort();
    List<String> cmd = new ArrayList<>();
    cmd.add(java());
    cmd.addAll(
        List.of(
            "-cp",
            LEGACY_JAR.toString(),
            "com.google.cloud.datastore.emulator.CloudDatastore",
            "start",
            "--host=localhost",
            "--port=" + port,
            "--testing",
            "--require_indexes",
            "--index_file=" + indexYaml.toAbsolutePath()));
    return new Emulator(cmd, port, tempLog("legacy-datastore-emulator"));
  }

  /** {@code localhost:port}, as {@code DatastoreDriver.Builder.emulatorHost} takes it. */
  public String hostPort() {
    return "localhost:" + port;
  }

  /** A client for this emulator with client-side retries off. */
  public Datastore client() {
    return DatastoreOptions.newBuilder()
        .setProjectId("test")
        .setHost("localhost:" + port)
        .setCredentials(NoCredentials.getInstance())
        .setRetrySettings(ServiceOptions.getNoRetrySettings())
        .build()
        .getService();
  }

  /** Clears all data. */
  void reset() {
    post("/reset");
  }

  @Override
  public void close() {
    stop();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook runs anyway.
    }
  }

  private void stop() {
    if (process.isAlive()) {
      try {
        post("/shutdown");
        process.waitFor(
            java.util.concurrent.TimeUnit.SECONDS.toMillis(5),
            java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (RuntimeException | InterruptedException e) {
        // Fall through to destroy.
      }
      process.destroy();
      process.descendants().forEach(ProcessHandle::destroy);
    }
  }

  private void awaitReady(Path log) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Datastore emulator exited with " + process.exitValue() + ":\n" + read(log));
      }
      try {
        HttpURLConnection c = open("/");
        if (c.getResponseCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // keep waiting
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    stop();
    throw new IllegalStateException("the Datastore emulator did not start in 60 s:\n" + read(log));
  }

  private void post(String path) {
    try {
      HttpURLConnection c = open(path);
      c.setRequestMethod("POST");
      c.setDoOutput(true);
      c.getOutputStream().close();
      c.getResponseCode();
    } catch (IOException e) {
      throw new IllegalStateException("POST " + path + " to the emulator failed", e);
    }
  }

  private HttpURLConnection open(String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create("http://localhost:" + port + path).toURL().openConnection();
    c.setConnectTimeout(1000);
    c.setReadTimeout(10_000);
    return c;
  }

  private static void require(Path jar, String debianPackage) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "the Datastore emulator is missing: "
              + jar
              + " not found. Install the Debian package "
              + debianPackage
              + " (apt-get install "
              + debianPackage
              + ").");
    }
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }

  private static Path tempLog(String name) {
    try {
      return Files.createTempFile(name, ".log");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
