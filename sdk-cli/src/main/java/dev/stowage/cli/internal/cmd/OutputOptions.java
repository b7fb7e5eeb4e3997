package dev.stowage.cli.internal.cmd;

import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.Item;
import picocli.CommandLine.Option;

/** How items are printed. */
public final class OutputOptions {
  @Option(names = "--pretty", description = "Indent the JSON.")
  boolean pretty;

  @Option(
      names = "--numbers-as-strings",
      description =
          "Write numbers as {\"$n\": \"…\"} for readers that parse JSON numbers as doubles.")
  boolean numbersAsStrings;

  String render(Item item) {
    Object json =
        ItemJson.toJson(
            item,
            numbersAsStrings ? ItemJson.NumberStyle.TAGGED_STRING : ItemJson.NumberStyle.NUMBER);
    return pretty ? Json.writePretty(json) : Json.write(json);
  }
}
