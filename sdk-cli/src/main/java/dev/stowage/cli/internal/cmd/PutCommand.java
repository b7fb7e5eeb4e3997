package dev.stowage.cli.internal.cmd;

import dev.stowage.Table;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.item.Item;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage put}. */
@Command(
    name = "put",
    mixinStandardHelpOptions = true,
    description =
        "Store items given as JSON (one object per --item, or one per line of --file; '-' reads"
            + " standard input). Declared attributes are compressed and encrypted on the way.")
public final class PutCommand implements Callable<Integer> {
  private static final int BATCH = 500;
  @ParentCommand Main main;
  @Mixin TableOptions table;

  @Option(
      names = {"-i", "--item"},
      description = "An item as a JSON object (repeatable).")
  List<String> items = new ArrayList<>();

  @Option(
      names = {"-f", "--file"},
      description = "JSON lines file, or - for standard input.")
  String file;

  @Option(names = "--if-absent", description = "Only store items whose key is not taken.")
  boolean ifAbsent;

  @Option(
      names = "--create-table",
      description =
          "Create the table and its indexes first if they do not exist (without it, a missing"
              + " table is an error: no command creates a table it was not asked to).")
  boolean createTable;

  @Override
  public Integer call() throws IOException {
    if (items.isEmpty() && file == null) {
      throw new CliException("nothing to put: give --item JSON or --file FILE");
    }
    // Every item is read and parsed before the store is touched, so bad input writes nothing.
    List<String> lines = new ArrayList<>(items);
    if (file != null) {
      BufferedReader r =
          file.equals("-")
              ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
              : Files.newBufferedReader(Path.of(file));
      try (r) {
        for (String line; (line = r.readLine()) != null; ) {
          if (!line.isBlank()) {
            lines.add(line);
          }
        }
      }
    }
    List<Item> parsed = new ArrayList<>(lines.size());
    int n = 0;
    for (String line : lines) {
      n++;
      try {
        parsed.add(ItemJson.parseItem(line));
      } catch (IllegalArgumentException e) {
        throw new CliException("item " + n + ": " + e.getMessage());
      }
    }
    try (OpenedStore store = table.open()) {
      Table t = createTable ? store.ensureTable() : store.table();
      long stored = 0;
      long skipped = 0;
      List<Item> batch = new ArrayList<>();
      for (Item item : parsed) {
        if (ifAbsent) {
          if (t.putIfAbsent(item)) {
            stored++;
          } else {
            skipped++;
          }
          continue;
        }
        batch.add(item);
        if (batch.size() == BATCH) {
          t.batchPut(batch);
          stored += batch.size();
          batch.clear();
        }
      }
      if (batch.size() == 1) {
        t.put(batch.get(0));
      } else if (!batch.isEmpty()) {
        t.batchPut(batch);
      }
      stored += batch.size();
      main.err()
          .println(
              "stored "
                  + stored
                  + " item(s)"
                  + (ifAbsent ? ", " + skipped + " already present" : ""));
      return 0;
    }
  }
}
