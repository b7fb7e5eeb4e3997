package dev.stowage.test;

import dev.stowage.test.internal.ChildProcess;
import dev.stowage.test.internal.EmulatorFiles;
import dev.stowage.test.internal.Ports;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Azurite, the Azure Storage emulator (blob and table services), as a Node.js child process on free
 * ports, in memory. Obtained from {@link Emulators#azurite()}; shared by the test run and stopped
 * at its end. Thread-safe.
 *
 * <p>Azurite is the npm package {@code azurite}; install it in your project ({@code npm install
 * --save-dev azurite}, which puts it in {@code node_modules} where this class finds it from the
 * working directory or any directory above it) or globally ({@code npm install -g azurite}). The
 * system property {@code stowage.azurite} (or {@code STOWAGE_AZURITE}) names its location directly.
 * Node.js 18 or newer must be on the PATH ({@code stowage.node} names another {@code node}).
 */
public final class Azurite {
  static final String INSTALL =
      "Install Azurite with npm: `npm install --save-dev azurite` in your project (or `npm install"
          + " -g azurite`), with Node.js 18+ on the PATH (Debian: apt-get install nodejs npm); or"
          + " set -Dstowage.azurite=/path/to/node_modules/azurite.";

  /** The emulator's account name. */
  public static final String ACCOUNT = "devstoreaccount1";

  /** The emulator's well-known account key. */
  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  // Exits when its standard input closes (the test JVM is gone), then runs Azurite's main script
  // with the arguments that follow, exactly as `node azurite.js args...` would.
  private static final String WRAPPER =
      "process.stdin.on('end',()=>process.exit(0));process.stdin.on('error',()=>process.exit(0));"
          + "process.stdin.resume();require(process.argv[1]);";

  private final ChildProcess process;
  private final int blobPort;
  private final int tablePort;

  private Azurite(ChildProcess process, int blobPort, int tablePort) {
    this.process = process;
    this.blobPort = blobPort;
    this.tablePort = tablePort;
  }

  static Azurite start() {
    Path script =
        EmulatorFiles.azuriteScript("stowage.azurite", "STOWAGE_AZURITE")
            .orElseThrow(() -> new EmulatorStartException("Azurite was not found. " + INSTALL));
    String node = System.getProperty("stowage.node", "node");
    // The azurite command also starts the queue service; without a port of its own it takes the
    // fixed default 10001 and fails whenever another Azurite runs on the machine.
    ChildProcess p =
        ChildProcess.startOnFreePorts(
            "Azurite",
            3,
            ports ->
                List.of(
                    node,
                    "-e",
                    WRAPPER,
                    script.toString(),
                    "--silent",
                    "--inMemoryPersistence",
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    String.valueOf(ports[0]),
                    "--tableHost",
                    "127.0.0.1",
                    "--tablePort",
                    String.valueOf(ports[1]),
                    "--queueHost",
                    "127.0.0.1",
                    "--queuePort",
                    String.valueOf(ports[2]),
                    "--skipApiVersionCheck",
                    "--disableTelemetry"),
            ports -> Ports.listening(ports[0]) && Ports.listening(ports[1]),
            Duration.ofSeconds(60),
            INSTALL);
    return new Azurite(p, p.ports()[0], p.ports()[1]);
  }

  /**
   * A connection string for both services, as the Azure SDK clients and {@code
   * AzureTablesDriver.fromConnectionString} take it.
   *
   * @return the connection string
   */
  public String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + KEY
        + ";BlobEndpoint="
        + blobEndpoint()
        + ";TableEndpoint="
        + tableEndpoint()
        + ";";
  }

  /**
   * The blob service endpoint, including the account.
   *
   * @return {@code http://127.0.0.1:port/devstoreaccount1}
   */
  public URI blobEndpoint() {
    return URI.create("http://127.0.0.1:" + blobPort + "/" + ACCOUNT);
  }

  /**
   * The table service endpoint, including the account.
   *
   * @return {@code http://127.0.0.1:port/devstoreaccount1}
   */
  public URI tableEndpoint() {
    return URI.create("http://127.0.0.1:" + tablePort + "/" + ACCOUNT);
  }

  /**
   * Azurite's process id.
   *
   * @return the child process's id
   */
  public long pid() {
    return process.pid();
  }

  void stop() {
    process.stop(Duration.ofSeconds(2));
  }
}
