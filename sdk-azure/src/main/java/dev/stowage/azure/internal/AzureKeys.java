package dev.stowage.azure.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.TableLayout;
import java.util.List;

/**
 * PartitionKey and RowKey strings of the entities the driver writes.
 *
 * <ul>
 *   <li>Item: PartitionKey {@code k} + enc(partition); RowKey {@code k} + enc(sort), or just {@code
 *       k} for tables without a sort key.
 *   <li>Mirror (tables with a sort key that keep mirror rows, see {@link Tables#mirrored}): same
 *       PartitionKey; RowKey {@code r} + reverse(enc(sort)), so an ascending scan of the mirror
 *       rows is the descending order of the items.
 *   <li>Index entry (index table): PartitionKey {@code <index name>.} + enc(index partition);
 *       forward RowKey {@code k} + C, reverse RowKey {@code r} + reverse(C), where C = enc(index
 *       sort) {@code !} K {@code !} nonce and K, the key part, is enc(item partition) [{@code !}
 *       enc(item sort)], cut to fit when it is too long (see {@link #storedKeyPart}).
 * </ul>
 *
 * Keys longer than {@link #MAX_KEY_CHARS} are rejected: Azure allows 1 KiB per key, which is 512
 * UTF-16 characters.
 *
 * <p>Adopted tables ({@link TableLayout#adopted()}) use the application's own keys instead: the
 * partition key's string is the PartitionKey, the sort key's string the RowKey (the empty string
 * for specs without a sort key), and there are no mirror rows. Such keys are checked against
 * Azure's own rules ({@link #checkNative}) before anything is sent. Their index entries live in
 * Stowage's own index table like any other: the key part K of an entry holds the item's key in
 * Stowage's encoding, cut to fit when the application's keys are long, so every item of an adopted
 * table can be indexed.
 */
public final class AzureKeys {
  /** Longest PartitionKey or RowKey the driver writes (1 KiB in UTF-16). */
  public static final int MAX_KEY_CHARS = 512;

  /** Row prefix of items. */
  public static final String ITEM = "k";

  /** Row prefix of mirror rows and reverse index rows. */
  public static final String MIRROR = "r";

  private AzureKeys() {}

  /** The PartitionKey of an item of {@code layout}. */
  public static String partitionKey(TableLayout layout, KeyValue partition) {
    if (!layout.adopted()) {
      return partitionKey(partition);
    }
    return checkNative(layout, nativeString(layout, partition, "partition"), "partition key");
  }

  /** The RowKey of an item of {@code layout}. */
  public static String rowKey(TableLayout layout, Key key) {
    if (!layout.adopted()) {
      return rowKey(key);
    }
    if (key.sortOrNull() == null) {
      return "";
    }
    return checkNative(layout, nativeString(layout, key.sortOrNull(), "sort"), "sort key");
  }

  /**
   * Decodes an item's key from its entity's keys. On an adopted table without a sort key only
   * entities whose RowKey is empty are items.
   *
   * @throws InvalidRequestException naming the entity if it has a RowKey the spec cannot address
   */
  public static Key key(TableLayout layout, String partitionKey, String rowKey) {
    if (!layout.adopted()) {
      return key(layout.keySchema(), partitionKey, rowKey);
    }
    KeyValue p = AttributeValue.of(partitionKey);
    if (layout.keySchema().hasSort()) {
      return Key.of(p, AttributeValue.of(rowKey));
    }
    if (!rowKey.isEmpty()) {
      throw new InvalidRequestException(
          "table "
              + layout.ref()
              + " adopts Azure table "
              + layout.adoptedName()
              + " without a sort key, so each of its items is the entity whose RowKey is empty, but"
              + " the entity with PartitionKey '"
              + partitionKey
              + "' and RowKey '"
              + rowKey
              + "' has another RowKey; declare a STRING sort key for the RowKey to read every"
              + " entity");
    }
    return Key.of(p);
  }

  /**
   * Refuses adopted layouts whose keys are not strings: Azure's PartitionKey and RowKey are.
   *
   * @throws InvalidRequestException naming the key attribute and its type
   */
  public static void requireStringKeys(TableLayout layout) {
    KeySchema k = layout.keySchema();
    if (k.partitionType() != AttributeType.STRING) {
      throw notString(layout, "partition", k.partitionName(), k.partitionType());
    }
    if (k.hasSort() && k.sortType().orElseThrow() != AttributeType.STRING) {
      throw notString(layout, "sort", k.sortName().orElseThrow(), k.sortType().orElseThrow());
    }
  }

  private static InvalidRequestException notString(
      TableLayout layout, String which, String name, AttributeType type) {
    return new InvalidRequestException(
        "table "
            + layout.ref()
            + " adopts Azure table "
            + layout.adoptedName()
            + ", whose "
            + (which.equals("partition") ? "PartitionKey" : "RowKey")
            + " is a string, but its "
            + which
            + " key '"
            + name
            + "' is "
            + type
            + "; an adopted Azure table's key attributes must be STRING");
  }

  private static String nativeString(TableLayout layout, KeyValue v, String which) {
    if (v instanceof AttributeValue.StringValue s) {
      return s.value();
    }
    requireStringKeys(layout);
    throw new InvalidRequestException(
        "the " + which + " key of adopted table " + layout.ref() + " must be a string");
  }

  /** The characters Azure refuses in PartitionKey and RowKey, as a message fragment. */
  static final String FORBIDDEN =
      "'/', '\\', '#', '?' and the control characters U+0000 to U+001F and U+007F to U+009F";

  /** True if Azure refuses {@code c} in a PartitionKey or RowKey. */
  static boolean forbidden(char c) {
    return c == '/' || c == '\\' || c == '#' || c == '?' || c < 0x20 || (c >= 0x7f && c <= 0x9f);
  }

  /**
   * Checks a native key against Azure's rules: at most 1 KiB (512 UTF-16 code units) and none of
   * the characters Azure refuses in keys.
   *
   * @throws InvalidRequestException naming the rule, the table and the key
   */
  public static String checkNative(TableLayout layout, String key, String what) {
    if (key.length() > MAX_KEY_CHARS) {
      throw new InvalidRequestException(
          what
              + " of adopted table "
              + layout.ref()
              + " is "
              + key.length()
              + " UTF-16 code units long; Azure Table Storage allows 1 KiB, that is "
              + MAX_KEY_CHARS
              + " UTF-16 code units, per PartitionKey and RowKey");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (forbidden(c)) {
        throw new InvalidRequestException(
            what
                + " '"
                + printable(key)
                + "' of adopted table "
                + layout.ref()
                + " contains "
                + (c < 0x20 || c >= 0x7f ? String.format("U+%04X", (int) c) : "'" + c + "'")
                + " at position "
                + i
                + "; Azure Table Storage refuses "
                + FORBIDDEN
                + " in PartitionKey and RowKey");
      }
    }
    return key;
  }

  /** True if {@code key} is one Azure accepts as PartitionKey or RowKey. */
  public static boolean isNative(String key) {
    if (key.length() > MAX_KEY_CHARS) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      if (forbidden(key.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static String printable(String key) {
    StringBuilder sb = new StringBuilder();
    key.codePoints()
        .limit(80)
        .forEach(
            cp -> {
              if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
                sb.append(String.format("\\u%04x", cp));
              } else {
                sb.appendCodePoint(cp);
              }
            });
    return key.codePointCount(0, key.length()) > 80 ? sb + "…" : sb.toString();
  }

  /**
   * Largest raw sort key value (in bytes) whose encoding fits a mirror row's RowKey ({@code r}, the
   * reversed encoding and its terminator): 382.
   */
  public static int maxRawKeyBytes() {
    return (MAX_KEY_CHARS - 2) * 6 / 8;
  }

  /**
   * Largest raw partition key value (in bytes) whose encoding fits a PartitionKey with its {@code
   * k} prefix: 383.
   */
  public static int maxRawPartitionKeyBytes() {
    return (MAX_KEY_CHARS - 1) * 6 / 8;
  }

  /** The PartitionKey of an item. */
  public static String partitionKey(KeyValue partition) {
    return checked(ITEM + KeyCodec.encode(partition), "partition key");
  }

  /** The RowKey of an item. */
  public static String rowKey(Key key) {
    return key.sortOrNull() == null
        ? ITEM
        : checked(ITEM + KeyCodec.encode(key.sortOrNull()), "sort key");
  }

  /** The RowKey of a mirror row. */
  public static String mirrorRowKey(KeyValue sort) {
    return checked(MIRROR + KeyCodec.reverse(KeyCodec.encode(sort)), "sort key");
  }

  /** The item RowKey a mirror RowKey points at. */
  public static String rowKeyOfMirror(String mirrorRowKey) {
    return ITEM + KeyCodec.unreverse(mirrorRowKey.substring(MIRROR.length()));
  }

  /** Decodes an item's key from its entity keys. */
  public static Key key(KeySchema schema, String partitionKey, String rowKey) {
    KeyValue p = KeyCodec.decode(partitionKey.substring(ITEM.length()), schema.partitionType());
    if (!schema.hasSort()) {
      return Key.of(p);
    }
    return Key.of(
        p, KeyCodec.decode(rowKey.substring(ITEM.length()), schema.sortType().orElseThrow()));
  }

  /** The PartitionKey of index entries. */
  public static String indexPartitionKey(String index, Bytes partition) {
    return checked(index + "." + KeyCodec.encodeBytes(partition.toByteArray()), "index partition");
  }

  /**
   * Characters of a nonce ({@link IndexEntries#newNonce}: 8 random bytes in sorted base64), the
   * last component of a composite.
   */
  static final int NONCE_CHARS = 11;

  /**
   * Longest composite C: the reverse row's RowKey, {@code r} + reverse(C), takes two characters
   * more and must stay within {@link #MAX_KEY_CHARS}.
   */
  static final int MAX_COMPOSITE_CHARS = MAX_KEY_CHARS - 2;

  /** Last character of a cut key part (see {@link #storedKeyPart}). */
  static final char KEY_BUCKET_MARKER = '-';

  /** The key part K of an index entry: enc(item partition) [{@code !} enc(item sort)]. */
  public static String keyPart(Key key) {
    StringBuilder sb = new StringBuilder(KeyCodec.encode(key.partition()));
    if (key.sortOrNull() != null) {
      sb.append(KeyCodec.SEP).append(KeyCodec.encode(key.sortOrNull()));
    }
    return sb.toString();
  }

  /**
   * The length B of a cut key part after an encoded index sort value of {@code sortChars}
   * characters: what is left of {@link #MAX_COMPOSITE_CHARS} after the sort value, two separators
   * and the nonce.
   */
  static int keyBudget(int sortChars) {
    return MAX_COMPOSITE_CHARS - sortChars - 2 - NONCE_CHARS;
  }

  /**
   * The key part as an entry's RowKey holds it: K itself when it has fewer than B characters
   * ({@link #keyBudget}), else its first B - 1 characters and {@link #KEY_BUCKET_MARKER}. Cut key
   * parts keep the order of the keys wherever their first B - 1 characters differ and sort after
   * every key part they start with; entries whose cut key parts are equal (a <em>run</em>) follow
   * each other in nonce order, and the query sorts them by key. Which form a stored key part has
   * follows from its length: B for a cut one, less for K itself.
   */
  static String storedKeyPart(String sortEnc, String keyPart) {
    int budget = keyBudget(sortEnc.length());
    if (keyPart.length() < budget || budget < 2) {
      return keyPart; // a budget below 2 leaves no room: checked() refuses the composite
    }
    return keyPart.substring(0, budget - 1) + KEY_BUCKET_MARKER;
  }

  /**
   * The composite C of an index entry without its nonce: enc(sort) {@code !} the stored key part.
   * Every entry of the item at that index sort value starts with it followed by {@code !}; when the
   * key part is cut, so do the other entries of its run.
   */
  public static String entryPrefix(Bytes sort, Key key) {
    String sortEnc = KeyCodec.encodeBytes(sort.toByteArray());
    return sortEnc + KeyCodec.SEP + storedKeyPart(sortEnc, keyPart(key));
  }

  /** The composite C of an index entry (see the class comment). */
  public static String indexComposite(Bytes sort, Key key, String nonce) {
    if (nonce.length() > NONCE_CHARS) {
      throw new IllegalArgumentException("nonce too long: " + nonce);
    }
    String c = entryPrefix(sort, key) + KeyCodec.SEP + nonce;
    // The reverse row is the longest: prefix + reverse(C), which appends one character.
    checked(MIRROR + c + KeyCodec.REVERSE_END, "index entry");
    return c;
  }

  /** True if the composite's key part is cut, so the item's key is in the entry's property. */
  static boolean keyPartCut(String composite) {
    int first = composite.indexOf(KeyCodec.SEP);
    int last = composite.lastIndexOf(KeyCodec.SEP);
    return last - first - 1 == keyBudget(first);
  }

  /**
   * A parsed index entry.
   *
   * @param sort the index sort value
   * @param key the item's key
   * @param nonce the item version the entry was written for
   * @param run the composite without its nonce when the key part is cut (entries sharing it form a
   *     run the query orders by key), else null
   */
  public record IndexEntry(Bytes sort, Key key, String nonce, String run) {}

  /**
   * Parses a composite C.
   *
   * @param keyPart the entry's whole key part K when its RowKey holds a cut one (the entry's
   *     property), else null
   */
  public static IndexEntry parseComposite(KeySchema schema, String composite, String keyPart) {
    int first = composite.indexOf(KeyCodec.SEP);
    int last = composite.lastIndexOf(KeyCodec.SEP);
    if (first < 0 || last <= first) {
      throw new IllegalStateException("malformed index entry " + composite);
    }
    boolean cut = last - first - 1 == keyBudget(first);
    String k = composite.substring(first + 1, last);
    if (cut) {
      if (keyPart == null || !storedKeyPart(composite.substring(0, first), keyPart).equals(k)) {
        throw new IllegalStateException("index entry " + composite + " lacks its whole key");
      }
      k = keyPart;
    }
    List<String> parts = List.of(k.split(String.valueOf(KeyCodec.SEP), -1));
    int expected = schema.hasSort() ? 2 : 1;
    if (parts.size() != expected) {
      throw new IllegalStateException("malformed index entry " + composite);
    }
    Bytes sort = Bytes.wrap(KeyCodec.decodeBytes(composite.substring(0, first)));
    KeyValue p = KeyCodec.decode(parts.get(0), schema.partitionType());
    Key key =
        schema.hasSort()
            ? Key.of(p, KeyCodec.decode(parts.get(1), schema.sortType().orElseThrow()))
            : Key.of(p);
    return new IndexEntry(
        sort, key, composite.substring(last + 1), cut ? composite.substring(0, last) : null);
  }

  private static String checked(String key, String what) {
    if (key.length() > MAX_KEY_CHARS) {
      throw new InvalidRequestException(
          what
              + " is too long for Azure Table Storage: its order-preserving encoding needs "
              + key.length()
              + " characters, at most "
              + MAX_KEY_CHARS
              + " (1 KiB) are allowed; partition key values may have at most "
              + maxRawPartitionKeyBytes()
              + " bytes, sort key values "
              + maxRawKeyBytes());
    }
    return key;
  }
}
