package dev.stowage.azure;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Azurite (blob and table) as a child process on free ports, started once per test JVM and stopped
 * by a shutdown hook (the whole process tree). Fails with an install hint when Node.js or the npm
 * package is missing.
 */
public final class Azurite {
  private static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
  private static Azurite instance;

  private final int blobPort;
  private final int tablePort;

  private Azurite(int blobPort, int tablePort) {
    this.blobPort = blobPort;
    this.tablePort = tablePort;
  }

  /** The shared instance, started on first use. */
  public static synchronized Azurite get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  /** Connection string for both services. */
  public String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
        + KEY
        + ";BlobEndpoint=http://127.0.0.1:"
        + blobPort
        + "/devstoreaccount1;TableEndpoint=http://127.0.0.1:"
        + tablePort
        + "/devstoreaccount1;";
  }

  private static Azurite start() {
    // Other modules' tests (sdk-cli) run the Azurite that sdk-azure's build installed.
    Path home = Path.of(System.getProperty("stowage.azurite.home", ""));
    Path bin = home.resolve(Path.of("node_modules", ".bin", "azurite")).toAbsolutePath();
    if (!Files.isExecutable(bin)) {
      throw new IllegalStateException(
          "Azurite is not installed at "
              + bin
              + ". The build installs it with `npm ci` in sdk-azure (generate-test-resources);"
              + " install Node.js 18+ with npm (Debian: apt-get install nodejs npm) and run"
              + " `mvn -pl sdk-azure test` again, or run `npm ci` in sdk-azure.");
    }
    int blob = freePort();
    int table = freePort();
    // The azurite command also starts the queue service; without a port of its own it takes the
    // fixed default 10001 and fails whenever another Azurite runs on the machine.
    int queue = freePort();
    List<String> command =
        List.of(
            bin.toString(),
            "--silent",
            "--inMemoryPersistence",
            "--blobHost",
            "127.0.0.1",
            "--blobPort",
            String.valueOf(blob),
            "--tableHost",
            "127.0.0.1",
            "--tablePort",
            String.valueOf(table),
            "--queueHost",
            "127.0.0.1",
            "--queuePort",
            String.valueOf(queue),
            "--skipApiVersionCheck",
            "--disableTelemetry");
    Process p;
    try {
      Files.createDirectories(Path.of("target"));
      p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(Path.of("target", "azurite.log").toFile())
              .start();
    } catch (IOException e) {
      throw new IllegalStateException(
          "could not start Azurite (" + e.getMessage() + "): is Node.js 18+ on the PATH?", e);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  p.descendants().forEach(ProcessHandle::destroy);
                  p.destroy();
                }));
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    while (!(listening(blob) && listening(table))) {
      if (!p.isAlive()) {
        throw new IllegalStateException(
            "Azurite exited with "
                + p.exitValue()
                + "; see "
                + Path.of("target", "azurite.log").toAbsolutePath());
      }
      if (Instant.now().isAfter(deadline)) {
        p.destroyForcibly();
        throw new IllegalStateException("Azurite did not listen within 30 s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return new Azurite(blob, table);
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
