package dev.stowage.test;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreOptions;
import dev.stowage.test.internal.ChildProcess;
import dev.stowage.test.internal.EmulatorFiles;
import dev.stowage.test.internal.ParentWatch;
import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A Cloud Datastore emulator as a child process on a free port: Google's Firestore emulator in
 * Datastore mode (from {@link Emulators#datastore()}, shared by the test run), or the legacy
 * Datastore emulator checking composite indexes against an {@code index.yaml} ({@link
 * #startRequiringIndexes}, one per caller). Thread-safe.
 *
 * <p>The emulators come with the Google Cloud CLI: the Debian packages {@code
 * google-cloud-cli-firestore-emulator} and {@code google-cloud-cli-datastore-emulator}, or {@code
 * gcloud components install cloud-firestore-emulator cloud-datastore-emulator}. They are found
 * under {@code /usr/lib/google-cloud-sdk}, {@code CLOUDSDK_ROOT_DIR} or next to {@code gcloud} on
 * the PATH; the system properties {@code stowage.firestore.emulator.jar} and {@code
 * stowage.datastore.emulator.jar} (or {@code STOWAGE_FIRESTORE_EMULATOR_JAR}, {@code
 * STOWAGE_DATASTORE_EMULATOR_JAR}) name the jar directly. The emulator needs no Google account.
 * {@link #client()} needs {@code com.google.cloud:google-cloud-datastore} on the class path.
 */
public final class DatastoreEmulator implements AutoCloseable {
  static final String FIRESTORE_INSTALL =
      "Install the Firestore emulator: apt-get install google-cloud-cli-firestore-emulator"
          + " (or gcloud components install cloud-firestore-emulator), or set"
          + " -Dstowage.firestore.emulator.jar=/path/to/cloud-firestore-emulator.jar.";
  static final String LEGACY_INSTALL =
      "Install the Datastore emulator: apt-get install google-cloud-cli-datastore-emulator"
          + " (or gcloud components install cloud-datastore-emulator), or set"
          + " -Dstowage.datastore.emulator.jar=/path/to/CloudDatastore.jar.";

  /** The project id the emulator serves. */
  public static final String PROJECT_ID = "test";

  private final ChildProcess process;
  private final int port;
  private final boolean shared;

  private DatastoreEmulator(ChildProcess process, int port, boolean shared) {
    this.process = process;
    this.port = port;
    this.shared = shared;
  }

  static DatastoreEmulator startFirestore() {
    Path jar =
        EmulatorFiles.googleEmulatorJar(
                "stowage.firestore.emulator.jar",
                "STOWAGE_FIRESTORE_EMULATOR_JAR",
                "cloud-firestore-emulator",
                "cloud-firestore-emulator.jar")
            .orElseThrow(
                () ->
                    new EmulatorStartException(
                        "The Firestore emulator (cloud-firestore-emulator.jar) was not found. "
                            + FIRESTORE_INSTALL));
    return start(
        "Firestore emulator",
        jar,
        port ->
            List.of(
                "com.google.cloud.datastore.emulator.firestore.CloudFirestore",
                "start",
                "--host=localhost",
                "--port=" + port,
                "--database-mode=datastore-mode"),
        true,
        FIRESTORE_INSTALL);
  }

  /**
   * Starts a legacy Datastore emulator that refuses every query lacking a composite index in {@code
   * indexYaml}, for checking an application's {@code index.yaml}. It does not enforce entity size
   * limits. The caller closes it.
   *
   * @param indexYaml the composite index definitions
   * @return the running emulator
   * @throws EmulatorStartException if the emulator is not installed or does not start
   */
  public static DatastoreEmulator startRequiringIndexes(Path indexYaml) {
    Path jar =
        EmulatorFiles.googleEmulatorJar(
                "stowage.datastore.emulator.jar",
                "STOWAGE_DATASTORE_EMULATOR_JAR",
                "cloud-datastore-emulator",
                "CloudDatastore.jar")
            .orElseThrow(
                () ->
                    new EmulatorStartException(
                        "The Datastore emulator (CloudDatastore.jar) was not found. "
                            + LEGACY_INSTALL));
    return start(
        "Datastore emulator",
        jar,
        port ->
            List.of(
                "com.google.cloud.datastore.emulator.CloudDatastore",
                "start",
                "--host=localhost",
                "--port=" + port,
                "--testing",
                "--require_indexes",
                "--index_file=" + indexYaml.toAbsolutePath()),
        false,
        LEGACY_INSTALL);
  }

  private static DatastoreEmulator start(
      String name, Path jar, IntFunction<List<String>> mainAndArgs, boolean shared, String hint) {
    ChildProcess p =
        ChildProcess.startOnFreePorts(
            name,
            1,
            ports -> {
              List<String> command = new ArrayList<>();
              command.add(EmulatorFiles.java());
              command.add("-cp");
              // The emulator's jar first: when this class comes from a fat jar (a benchmark's),
              // the libraries bundled there (protobuf among them) must not shadow the emulator's
              // own copies.
              command.add(jar + File.pathSeparator + EmulatorFiles.ownCodeSource());
              command.add(ParentWatch.class.getName());
              command.addAll(mainAndArgs.apply(ports[0]));
              return command;
            },
            ports -> answers(ports[0]),
            Duration.ofSeconds(60),
            hint);
    return new DatastoreEmulator(p, p.ports()[0], shared);
  }

  /**
   * Where the emulator listens, as {@code DatastoreDriver.Builder.emulatorHost} and {@code
   * DatastoreOptions.Builder.setHost} take it.
   *
   * @return {@code localhost:port}
   */
  public String hostPort() {
    return "localhost:" + port;
  }

  /**
   * A new client for this emulator (project {@value #PROJECT_ID}, no credentials, client-side
   * retries off); the caller closes it.
   *
   * @return a new client
   */
  public Datastore client() {
    return DatastoreOptions.newBuilder()
        .setProjectId(PROJECT_ID)
        .setHost(hostPort())
        .setCredentials(NoCredentials.getInstance())
        .setRetrySettings(ServiceOptions.getNoRetrySettings())
        .build()
        .getService();
  }

  /** Deletes all data in the emulator. */
  public void reset() {
    post("/reset");
  }

  /**
   * The emulator's process id.
   *
   * @return the child process's id
   */
  public long pid() {
    return process.pid();
  }

  /**
   * Stops an emulator from {@link #startRequiringIndexes}. The shared emulator of {@link
   * Emulators#datastore()} is stopped at the end of the test run instead; closing it does nothing.
   */
  @Override
  public void close() {
    if (!shared) {
      stop();
    }
  }

  void stop() {
    if (process.isAlive()) {
      try {
        post("/shutdown");
      } catch (RuntimeException alreadyGone) {
        // destroyed below
      }
    }
    process.stop(Duration.ofSeconds(5));
  }

  private static boolean answers(int port) {
    try {
      HttpURLConnection c = open(port, "/");
      return c.getResponseCode() == 200;
    } catch (IOException notYet) {
      return false;
    }
  }

  private void post(String path) {
    try {
      HttpURLConnection c = open(port, path);
      c.setRequestMethod("POST");
      c.setDoOutput(true);
      c.getOutputStream().close();
      c.getResponseCode();
    } catch (IOException e) {
      throw new IllegalStateException("POST " + path + " to the Datastore emulator failed", e);
    }
  }

  private static HttpURLConnection open(int port, String path) throws IOException {
    HttpURLConnection c =
        (HttpURLConnection) URI.create("http://localhost:" + port + path).toURL().openConnection();
    c.setConnectTimeout(1000);
    c.setReadTimeout(10_000);
    return c;
  }
}
