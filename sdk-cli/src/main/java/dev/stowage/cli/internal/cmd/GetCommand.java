package dev.stowage.cli.internal.cmd;

import dev.stowage.cli.Main;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.ReadOptions;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage get}. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description =
        "Print one item as JSON (compressed values decoded; encrypted ones too with --keyset)."
            + " Exit code 1 if there is no such item.")
public final class GetCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;

  @Option(
      names = {"-k", "--key"},
      required = true,
      description = "The key: a JSON object of the key attributes, or a bare partition value.")
  String key;

  @Option(names = "--raw", description = "Show the stored form, as the backend holds it.")
  boolean raw;

  @Override
  public Integer call() {
    try (OpenedStore store = table.open()) {
      Key k = Args.key(store.spec().keySchema(), key);
      Optional<Item> item =
          raw
              ? store.driver().get(store.layout(), k, true).map(s -> s.item())
              : store.table().get(k, ReadOptions.CONSISTENT);
      if (item.isEmpty()) {
        main.err().println("stowage: no item with key " + k);
        return 1;
      }
      main.out().println(output.render(item.get()));
      if (!raw) {
        UndeclaredEncryption hint = new UndeclaredEncryption(store.spec());
        hint.look(item.get());
        hint.report(main.err());
      }
      return 0;
    }
  }
}
