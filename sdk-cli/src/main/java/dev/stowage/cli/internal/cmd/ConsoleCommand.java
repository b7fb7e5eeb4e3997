package dev.stowage.cli.internal.cmd;

import dev.stowage.TableSpec;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.cli.internal.Specs;
import dev.stowage.cli.internal.StoreConfig;
import dev.stowage.console.Console;
import dev.stowage.usage.UsageTracking;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage console}: serves the web console (sdk-console) over the given stores' tables. */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description =
        "Serve a web console on 127.0.0.1 over the tables of the given stores and open it in a"
            + " browser: browse, page, decode (compressed, and encrypted with --keyset), edit and"
            + " delete items, run delete-by-index jobs, and migrate a table to another of the"
            + " given stores (another backend or namespace) as a job with progress, cancel and"
            + " resume. Runs until interrupted (Ctrl-C).")
public final class ConsoleCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Option(
      names = {"-s", "--store"},
      required = true,
      paramLabel = "URI|NAME",
      description =
          "A table to show (repeatable): a store URI naming the table, or a store named in the"
              + " config file (whose spec is used).")
  List<String> stores = new ArrayList<>();

  @Option(names = "--config", paramLabel = "FILE", description = "Config file with named stores.")
  Path config;

  @Option(names = "--blobs", paramLabel = "URI", description = "Overflow blob store URI.")
  String blobs;

  @Option(
      names = "--keyset",
      paramLabel = "FILE",
      description =
          "Tink JSON keyset for encrypted attributes: values are decrypted in this process and"
              + " only their plaintext reaches the browser. Without it they show as encrypted.")
  Path keyset;

  @Option(names = "--cursor-keyset", paramLabel = "FILE", description = "Keyset sealing cursors.")
  Path cursorKeyset;

  @Option(names = "--spec", paramLabel = "FILE", description = "Table spec file (JSON) for URIs.")
  Path specFile;

  @Option(names = "--pk", paramLabel = "NAME:TYPE", description = "Partition key, for URIs.")
  String pk;

  @Option(names = "--sk", paramLabel = "NAME:TYPE", description = "Sort key, for URIs.")
  String sk;

  @Option(names = "--spec-index", paramLabel = "NAME=P1,P2/S1,S2", description = "An index.")
  List<String> indexes = new ArrayList<>();

  @Option(names = "--compressed", split = ",", description = "Compressed attributes.")
  List<String> compressed = new ArrayList<>();

  @Option(names = "--encrypted", split = ",", description = "Encrypted attributes.")
  List<String> encrypted = new ArrayList<>();

  @Option(
      names = "--create-tables",
      description = "Create missing tables and indexes first (for example on memory://).")
  boolean createTables;

  @Option(names = "--port", defaultValue = "0", description = "Port on 127.0.0.1 (0: a free one).")
  int port;

  @Option(names = "--no-open", description = "Print the URL only; do not start a browser.")
  boolean noOpen;

  @Override
  public Integer call() throws InterruptedException {
    List<OpenedStore> opened = new ArrayList<>();
    Console console = null;
    try {
      Console.Builder b = Console.builder().port(port);
      for (String ref : stores) {
        StoreConfig c = StoreConfig.resolve(ref, config, blobs, keyset, this::specFromFlags);
        if (cursorKeyset != null) {
          c = new StoreConfig(c.store(), c.blobs(), c.keyset(), c.spec(), cursorKeyset);
        }
        // The console's usage view shows what its own requests and jobs used and their hot keys.
        OpenedStore s = OpenedStore.open(c, UsageTracking.builder().build());
        opened.add(s);
        TableSpec spec = s.spec();
        if (createTables) {
          s.ensureTable();
        } else {
          s.table(); // a missing table fails here, with the command line's hint
        }
        // The blob store too: a migration job copies overflow blobs between the stores' own.
        b.store(c.store().redacted(), s.stowage(), s.blobs(), s.codecs(), List.of(spec));
      }
      console = b.start();
      String url = console.url().toString();
      main.out().println("stowage console: " + url);
      main.out().println("(only this URL opens it; press Ctrl-C to stop)");
      main.out().flush();
      if (!noOpen && !openBrowser(url)) {
        main.err().println("stowage: no browser could be started; open the URL above");
      }
      CountDownLatch stopped = new CountDownLatch(1);
      Console running = console;
      Thread hook =
          new Thread(
              () -> {
                running.close();
                opened.forEach(OpenedStore::close);
                stopped.countDown();
              });
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        stopped.await();
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // the JVM is shutting down: the hook is closing everything
        }
      }
      return 0;
    } finally {
      if (console != null) {
        console.close();
      }
      opened.forEach(OpenedStore::close);
    }
  }

  private TableSpec specFromFlags(String tableFromUri) {
    if (specFile != null) {
      return Specs.read(specFile, tableFromUri);
    }
    if (pk == null) {
      return null;
    }
    try {
      return Specs.build(tableFromUri, pk, sk, indexes, compressed, encrypted, null, 0, null);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
  }

  /** Starts the platform's URL opener; false if there is none. */
  private static boolean openBrowser(String url) {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    List<String> command =
        os.contains("mac")
            ? List.of("open", url)
            : os.contains("win")
                ? List.of("rundll32", "url.dll,FileProtocolHandler", url)
                : List.of("xdg-open", url);
    try {
      new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
