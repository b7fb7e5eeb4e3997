package dev.stowage.codec;

import dev.stowage.AttributePolicy;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The golden vectors of envelope format version 1 (src/test/resources/codec/golden-v1.txt): their
 * cases, the file format, and a {@link #main} that generated the committed file once. Never
 * regenerate the committed file: envelopes written by earlier releases must keep decoding, so new
 * cases go into a new file.
 */
final class GoldenVectors {
  static final String FILE = "/codec/golden-v1.txt";

  /**
   * Vectors of the payload kinds (binary and string values encrypted as their own bytes), added to
   * version 1 after {@link #FILE}, which holds the same kinds of values in their serialised form.
   */
  static final String KINDS_FILE = "/codec/golden-v1-payload-kinds.txt";

  static final String DICTIONARY = "/codec/golden-dictionary-300.txt";
  private static final HexFormat HEX = HexFormat.of();

  // The keys of the vectors: a string partition key, a number sort key, a binary partition key.
  private static final Key STRING_KEY = Key.of("order#1");
  private static final Key NUMBER_SORT_KEY =
      Key.of(AttributeValue.of("customer#9"), AttributeValue.of(42));
  private static final Key BINARY_KEY = Key.of((KeyValue) AttributeValue.of(new byte[] {9, 8, 7}));

  /** One vector: where the value lives, its policy, the plain value and the envelope. */
  record Vector(
      String name,
      String table,
      Key key,
      String attribute,
      AttributePolicy policy,
      AttributeValue value,
      byte[] envelope,
      boolean deterministic) {}

  private GoldenVectors() {}

  /** Codecs with the fixed test keyset and the golden dictionary for attribute "doc". */
  static Codecs codecs() {
    return Codecs.builder()
        .keys(KeyProvider.ofCleartextJsonKeyset(TestKeys.fixedKeysetJson()))
        .dictionary("doc", dictionary())
        .build();
  }

  static ZstdDictionary dictionary() {
    return ZstdDictionary.of(
        300, TestKeys.resourceText(DICTIONARY).getBytes(StandardCharsets.UTF_8));
  }

  /** The cases, without envelopes. */
  static List<Vector> cases() {
    String json = TestKeys.resourceText(DICTIONARY).substring(0, 600);
    Map<String, AttributeValue> nested = new LinkedHashMap<>();
    nested.put("name", AttributeValue.of("Ada Lovelace ✓"));
    nested.put("tags", AttributeValue.stringSet("a", "b", "c"));
    nested.put("score", AttributeValue.of(new BigDecimal("-12.75")));
    nested.put("ok", AttributeValue.of(true));
    nested.put("none", AttributeValue.nullValue());
    nested.put(
        "list", AttributeValue.list(AttributeValue.of(1), AttributeValue.of("x".repeat(80))));
    nested.put("bytes", AttributeValue.of(new byte[] {0, 1, 2, (byte) 0xFF}));
    AttributeValue map = AttributeValue.map(nested);
    List<Vector> v = new ArrayList<>();
    v.add(
        c(
            "escaped-binary",
            "files",
            STRING_KEY,
            "raw",
            AttributePolicy.COMPRESSED,
            AttributeValue.of(new byte[] {(byte) 0xF5, 0x53, 0x00}),
            true));
    v.add(
        c(
            "compressed-string",
            "orders",
            STRING_KEY,
            "body",
            AttributePolicy.COMPRESSED,
            AttributeValue.of(json),
            true));
    v.add(
        c(
            "compressed-map",
            "orders",
            NUMBER_SORT_KEY,
            "profile",
            AttributePolicy.COMPRESSED,
            map,
            true));
    v.add(
        c(
            "compressed-dictionary",
            "orders",
            STRING_KEY,
            "doc",
            AttributePolicy.COMPRESSED,
            AttributeValue.of(json.substring(100, 400)),
            true));
    v.add(
        c(
            "encrypted-string",
            "people",
            STRING_KEY,
            "ssn",
            AttributePolicy.ENCRYPTED,
            AttributeValue.of("078-05-1120"),
            false));
    v.add(
        c(
            "encrypted-number-set",
            "people",
            NUMBER_SORT_KEY,
            "pins",
            AttributePolicy.ENCRYPTED,
            AttributeValue.numberSet(List.of(new BigDecimal("1234"), new BigDecimal("0.5"))),
            false));
    v.add(
        c(
            "compressed-encrypted-map",
            "people",
            NUMBER_SORT_KEY,
            "profile",
            AttributePolicy.COMPRESSED_AND_ENCRYPTED,
            map,
            false));
    v.add(
        c(
            "compressed-encrypted-dictionary",
            "people",
            BINARY_KEY,
            "doc",
            AttributePolicy.COMPRESSED_AND_ENCRYPTED,
            AttributeValue.of(json),
            false));
    v.add(
        c(
            "encrypted-incompressible-binary",
            "blobs",
            BINARY_KEY,
            "sig",
            AttributePolicy.COMPRESSED_AND_ENCRYPTED,
            AttributeValue.of(Bytes.of(new byte[] {3, 1, 4, 1, 5, 9, 2, 6})),
            false));
    return v;
  }

  /** The cases of {@link #KINDS_FILE}, without envelopes. */
  static List<Vector> payloadKindCases() {
    byte[] bytes = new byte[300];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 7);
    }
    bytes[0] = (byte) 0xF5;
    bytes[1] = 0x53;
    List<Vector> v = new ArrayList<>();
    v.add(
        c(
            "encrypted-binary-bytes",
            "blobs",
            NUMBER_SORT_KEY,
            "photo",
            AttributePolicy.ENCRYPTED,
            AttributeValue.of(bytes),
            false));
    v.add(
        c(
            "encrypted-empty-binary-bytes",
            "blobs",
            STRING_KEY,
            "empty",
            AttributePolicy.ENCRYPTED,
            AttributeValue.of(new byte[0]),
            false));
    v.add(
        c(
            "encrypted-string-utf8",
            "people",
            STRING_KEY,
            "ssn",
            AttributePolicy.ENCRYPTED,
            AttributeValue.of("078-05-1120 Ada Lovelace ✓ \uD83D\uDE00"),
            false));
    v.add(
        c(
            "compressed-encrypted-incompressible-binary-bytes",
            "blobs",
            BINARY_KEY,
            "sig",
            AttributePolicy.COMPRESSED_AND_ENCRYPTED,
            AttributeValue.of(Bytes.of(new byte[] {3, 1, 4, 1, 5, 9, 2, 6})),
            false));
    return v;
  }

  private static Vector c(
      String name,
      String table,
      Key key,
      String attribute,
      AttributePolicy policy,
      AttributeValue value,
      boolean deterministic) {
    return new Vector(name, table, key, attribute, policy, value, null, deterministic);
  }

  /** Writes the vector file: one block of "field: value" lines per vector. */
  static String format(List<Vector> vectors) {
    StringBuilder sb =
        new StringBuilder(
            "# Stowage attribute envelope, format version 1: golden vectors (docs/FORMAT.md).\n"
                + "# Keys: src/test/resources/codec/test-keyset.json. Dictionary 300:"
                + " golden-dictionary-300.txt (UTF-8).\n"
                + "# partition/sort/value are ValueWire hex. Never edit: add a new file instead.\n");
    for (Vector x : vectors) {
      sb.append('\n')
          .append("name: ")
          .append(x.name())
          .append('\n')
          .append("table: ")
          .append(x.table())
          .append('\n')
          .append("partition: ")
          .append(HEX.formatHex(ValueWire.encode(x.key().partition())))
          .append('\n')
          .append("sort: ")
          .append(
              x.key().sortOrNull() == null
                  ? "-"
                  : HEX.formatHex(ValueWire.encode(x.key().sortOrNull())))
          .append('\n')
          .append("attribute: ")
          .append(x.attribute())
          .append('\n')
          .append("policy: ")
          .append(x.policy().compressed() ? "compressed" : "")
          .append(x.policy().compressed() && x.policy().encrypted() ? "," : "")
          .append(x.policy().encrypted() ? "encrypted" : "")
          .append(x.policy().encoded() ? "" : "plain")
          .append('\n')
          .append("deterministic: ")
          .append(x.deterministic())
          .append('\n')
          .append("value: ")
          .append(HEX.formatHex(ValueWire.encode(x.value())))
          .append('\n')
          .append("envelope: ")
          .append(HEX.formatHex(x.envelope()))
          .append('\n');
    }
    return sb.toString();
  }

  /** Parses the vector file. */
  static List<Vector> parse(String text) {
    List<Vector> out = new ArrayList<>();
    Map<String, String> f = new LinkedHashMap<>();
    for (String line : (text + "\n\n").split("\n", -1)) {
      if (line.startsWith("#")) {
        continue;
      }
      if (line.isBlank()) {
        if (!f.isEmpty()) {
          out.add(vector(f));
          f.clear();
        }
        continue;
      }
      int colon = line.indexOf(": ");
      f.put(line.substring(0, colon), line.substring(colon + 2));
    }
    return out;
  }

  private static Vector vector(Map<String, String> f) {
    KeyValue p = (KeyValue) ValueWire.decode(HEX.parseHex(f.get("partition")));
    Key key =
        f.get("sort").equals("-")
            ? Key.of(p)
            : Key.of(p, (KeyValue) ValueWire.decode(HEX.parseHex(f.get("sort"))));
    String policy = f.get("policy");
    return new Vector(
        f.get("name"),
        f.get("table"),
        key,
        f.get("attribute"),
        new AttributePolicy(policy.contains("compressed"), policy.contains("encrypted")),
        ValueWire.decode(HEX.parseHex(f.get("value"))),
        HEX.parseHex(f.get("envelope")),
        Boolean.parseBoolean(f.get("deterministic")));
  }

  /**
   * Generates a vector file once: {@code GoldenVectors v1 <path>} wrote {@link #FILE}, {@code
   * GoldenVectors kinds <path>} {@link #KINDS_FILE}.
   */
  public static void main(String[] args) throws IOException {
    Codecs codecs = codecs();
    List<Vector> done = new ArrayList<>();
    for (Vector x : args[0].equals("kinds") ? payloadKindCases() : cases()) {
      AttributeValue stored =
          codecs.encode(x.table(), x.key(), x.attribute(), x.policy(), x.value());
      byte[] env = ((BinaryValue) stored).value().toByteArray();
      done.add(
          new Vector(
              x.name(),
              x.table(),
              x.key(),
              x.attribute(),
              x.policy(),
              x.value(),
              env,
              x.deterministic()));
    }
    Files.writeString(Path.of(args[1]), format(done));
  }
}
