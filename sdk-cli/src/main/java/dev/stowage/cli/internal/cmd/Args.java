package dev.stowage.cli.internal.cmd;

import dev.stowage.KeySchema;
import dev.stowage.cli.internal.CliException;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Parsing of keys and key values given on the command line. */
final class Args {
  private Args() {}

  /**
   * A key: a JSON object of the key attributes ({@code {"feed":"ada","at":3}}), or for a table with
   * a string partition key and no sort key, the bare partition value.
   */
  static Key key(KeySchema schema, String text) {
    Object json;
    try {
      json = Json.parse(text);
    } catch (IllegalArgumentException e) {
      json = text;
    }
    if (json instanceof Map<?, ?>) {
      try {
        Item item = ItemJson.item(json, false);
        return schema.keyOf(item);
      } catch (RuntimeException e) {
        throw new CliException("bad --key " + text + ": " + e.getMessage());
      }
    }
    if (schema.hasSort()) {
      throw new CliException(
          "the table has a sort key: give --key as a JSON object, e.g. {\""
              + schema.partitionName()
              + "\": …, \""
              + schema.sortName().orElseThrow()
              + "\": …}");
    }
    return schema.validate(Key.of(keyValue(json, "--key")));
  }

  /** One key value: a JSON string, number or {"$b": base64}; other text is a string. */
  static KeyValue keyValue(Object json, String what) {
    AttributeValue v = ItemJson.value(json, what);
    if (v instanceof KeyValue kv) {
      return kv;
    }
    throw new CliException(what + " must be a string, number or binary, not " + v.type());
  }

  /** A tuple of key values: a JSON array, a single JSON value, or bare text taken as one string. */
  static List<KeyValue> tuple(String text, String what) {
    Object json;
    try {
      json = Json.parse(text);
    } catch (IllegalArgumentException e) {
      json = text;
    }
    List<KeyValue> out = new ArrayList<>();
    if (json instanceof List<?> l) {
      for (Object o : l) {
        out.add(keyValue(o, what));
      }
    } else {
      out.add(keyValue(json, what));
    }
    return out;
  }
}
