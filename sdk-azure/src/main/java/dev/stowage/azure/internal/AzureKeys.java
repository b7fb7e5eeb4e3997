package dev.stowage.azure.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.util.List;

/**
 * PartitionKey and RowKey strings of the entities the driver writes.
 *
 * <ul>
 *   <li>Item: PartitionKey {@code k} + enc(partition); RowKey {@code k} + enc(sort), or just {@code
 *       k} for tables without a sort key.
 *   <li>Mirror (tables with a sort key): same PartitionKey; RowKey {@code r} + reverse(enc(sort)),
 *       so an ascending scan of the mirror rows is the descending order of the items.
 *   <li>Index entry (index table): PartitionKey {@code <index name>.} + enc(index partition);
 *       forward RowKey {@code k} + C, reverse RowKey {@code r} + reverse(C), where C = enc(index
 *       sort) {@code !} enc(item partition) [{@code !} enc(item sort)] {@code !} nonce.
 * </ul>
 *
 * Keys longer than {@link #MAX_KEY_CHARS} are rejected: Azure allows 1 KiB per key, which is 512
 * UTF-16 characters.
 */
public final class AzureKeys {
  /** Longest PartitionKey or RowKey the driver writes (1 KiB in UTF-16). */
  public static final int MAX_KEY_CHARS = 512;

  /** Row prefix of items. */
  public static final String ITEM = "k";

  /** Row prefix of mirror rows and reverse index rows. */
  public static final String MIRROR = "r";

  private AzureKeys() {}

  /** Largest raw key value (in bytes) whose encoding fits one Azure key with its prefix. */
  public static int maxRawKeyBytes() {
    return (MAX_KEY_CHARS - 2) * 6 / 8;
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

  /** The composite C of an index entry (see the class comment). */
  public static String indexComposite(Bytes sort, Key key, String nonce) {
    StringBuilder sb = new StringBuilder();
    sb.append(KeyCodec.encodeBytes(sort.toByteArray()));
    sb.append(KeyCodec.SEP).append(KeyCodec.encode(key.partition()));
    if (key.sortOrNull() != null) {
      sb.append(KeyCodec.SEP).append(KeyCodec.encode(key.sortOrNull()));
    }
    sb.append(KeyCodec.SEP).append(nonce);
    // The reverse row is the longest: prefix + reverse(C), which appends one character.
    checked(MIRROR + sb + KeyCodec.REVERSE_END, "index entry");
    return sb.toString();
  }

  /**
   * A parsed index entry.
   *
   * @param sort the index sort value
   * @param key the item's key
   * @param nonce the item version the entry was written for
   */
  public record IndexEntry(Bytes sort, Key key, String nonce) {}

  /** Parses a composite C. */
  public static IndexEntry parseComposite(KeySchema schema, String composite) {
    List<String> parts = List.of(composite.split(String.valueOf(KeyCodec.SEP), -1));
    int expected = schema.hasSort() ? 4 : 3;
    if (parts.size() != expected) {
      throw new IllegalStateException("malformed index entry " + composite);
    }
    Bytes sort = Bytes.wrap(KeyCodec.decodeBytes(parts.get(0)));
    KeyValue p = KeyCodec.decode(parts.get(1), schema.partitionType());
    Key key =
        schema.hasSort()
            ? Key.of(p, KeyCodec.decode(parts.get(2), schema.sortType().orElseThrow()))
            : Key.of(p);
    return new IndexEntry(sort, key, parts.get(expected - 1));
  }

  private static String checked(String key, String what) {
    if (key.length() > MAX_KEY_CHARS) {
      throw new InvalidRequestException(
          what
              + " is too long for Azure Table Storage: its order-preserving encoding needs "
              + key.length()
              + " characters, at most "
              + MAX_KEY_CHARS
              + " (1 KiB) are allowed; key values may have at most "
              + maxRawKeyBytes()
              + " bytes");
    }
    return key;
  }
}
