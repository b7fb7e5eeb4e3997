package dev.stowage.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.internal.EnvelopeCodec;
import dev.stowage.codec.internal.EnvelopeCodecs;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.item.Utf8Order;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts between an application's item and the form a driver stores: attribute codecs applied,
 * index values synthesized, request ids recorded; and back. Native indexes get no synthesized
 * values (the backend indexes their plain attributes), but their attributes must hold the declared
 * types. Thread-safe.
 */
final class StoredForm {
  /** Reserved attribute listing the request ids recently applied to an item. */
  static final String REQUEST_IDS = "stowage:rq";

  /**
   * Reserved attribute holding the id of the compare-and-set write that stored this version, so a
   * retry after a lost response can tell its own landed write from someone else's.
   */
  static final String WRITE_ID = "stowage:w";

  private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

  private final TableSpec spec;
  private final Codecs codecs;
  private final EnvelopeCodec codec;
  private final DriverLimits limits;
  private final EnvelopeCodec.SizeSink compression;
  private final List<IndexLayout> layouts = new ArrayList<>();
  private final int[] fingerprints;
  // No attribute of the table declares a codec (compression or encryption).
  private final boolean plainOnly;
  private final LastPartition[] lastPartitions;
  // The reserved attributes encode appends after the user's (index values in index order, then
  // request ids and the write id) follow each other in name order.
  private final boolean reservedInOrder;
  // The key attributes' names and hash codes (sortName null, sortHash 0 without a sort key).
  private final String partitionName;
  private final int partitionHash;
  private final String sortName;
  private final int sortHash;
  // How many indexes get synthesized values (the indexes Stowage maintains).
  private final int synthesizedIndexes;

  /** A form that counts no compression. */
  StoredForm(TableSpec spec, Codecs codecs, DriverLimits limits) {
    this(spec, codecs, limits, null);
  }

  /**
   * @param counters where the sizes of compressed attributes' values go as they are encoded, or
   *     null
   */
  StoredForm(TableSpec spec, Codecs codecs, DriverLimits limits, Metrics.TableCounters counters) {
    this.spec = spec;
    this.codecs = codecs;
    this.codec = EnvelopeCodecs.of(codecs);
    this.limits = limits;
    this.compression = counters == null ? null : counters::compressed;
    spec.indexes().forEach(i -> layouts.add(IndexLayout.of(i)));
    this.fingerprints = spec.indexes().stream().mapToInt(IndexValues::fingerprint).toArray();
    this.plainOnly = spec.policies().values().stream().noneMatch(AttributePolicy::encoded);
    this.lastPartitions = new LastPartition[fingerprints.length];
    List<String> reserved = new ArrayList<>();
    for (int i = 0; i < layouts.size(); i++) {
      if (!spec.indexes().get(i).isNative()) {
        reserved.add(layouts.get(i).partitionAttribute());
        reserved.add(layouts.get(i).sortAttribute());
      }
    }
    reserved.add(REQUEST_IDS);
    reserved.add(WRITE_ID);
    boolean inOrder = true;
    for (int i = 1; i < reserved.size(); i++) {
      inOrder &= Utf8Order.compare(reserved.get(i - 1), reserved.get(i)) < 0;
    }
    this.reservedInOrder = inOrder;
    this.partitionName = spec.keySchema().partitionName();
    this.partitionHash = partitionName.hashCode();
    this.sortName = spec.keySchema().sortName().orElse(null);
    this.sortHash = sortName == null ? 0 : sortName.hashCode();
    this.synthesizedIndexes = reserved.size() / 2 - 1;
  }

  /**
   * The stored form of a (validated) user item.
   *
   * @param requestIds request ids to record, oldest first, already trimmed to the window
   * @throws InvalidRequestException if the item holds a reserved attribute or a value nested deeper
   *     than {@link AttributeValue#MAX_NESTING}
   * @throws ItemTooLargeException if an index's values exceed the backend's indexed-value limit
   */
  Item encode(Item user, Key key, List<String> requestIds) {
    return encode(user, key, requestIds, null);
  }

  /**
   * The stored form of a (validated) user item, written by the compare-and-set write {@code
   * writeId}.
   *
   * @param requestIds request ids to record, oldest first, already trimmed to the window
   * @param writeId the write's id (see {@link #newWriteId}), or null to record none
   */
  Item encode(Item user, Key key, List<String> requestIds, String writeId) {
    return encode(user, key, requestIds, writeId, true);
  }

  /**
   * The stored form of a user item, as {@link #encode(Item, Key, List, String)}.
   *
   * @param strictIndexes true to refuse an indexed value no index can hold (a value that is not a
   *     string, number or binary value, or one over the backend's indexed-value limit); false to
   *     leave the item out of that index instead, as rewrites of items other tools wrote do
   */
  Item encode(Item user, Key key, List<String> requestIds, String writeId, boolean strictIndexes) {
    // Two arrays handed over to the stored item: the user's attributes come checked and in name
    // order, the reserved ones are placed by the item's insertion sort (a few comparisons).
    int room =
        user.size()
            + 2 * synthesizedIndexes
            + (requestIds.isEmpty() ? 0 : 1)
            + (writeId == null ? 0 : 1);
    String[] names = new String[room];
    AttributeValue[] values = new AttributeValue[room];
    int n = 0;
    KeySchema keys = spec.keySchema();
    AttributeValue partitionValue = null;
    AttributeValue sortValue = null;
    String[] userNames = ItemAccess.names(user);
    AttributeValue[] userValues = ItemAccess.values(user);
    if (userNames == null) {
      userNames = new String[user.size()];
      userValues = new AttributeValue[user.size()];
      int i = 0;
      for (Map.Entry<String, AttributeValue> e : user.attributes().entrySet()) {
        userNames[i] = e.getKey();
        userValues[i++] = e.getValue();
      }
    }
    for (int i = 0, count = user.size(); i < count; i++) {
      String name = userNames[i];
      AttributeValue value = userValues[i];
      if (AttributeNames.isReserved(name)) {
        // Only items built through internal accessors can get here: the public builders refuse
        // these names. A planted request id or index value would corrupt idempotency or indexes.
        throw new InvalidRequestException(
            "attribute '"
                + name
                + "' of item "
                + key
                + " in table '"
                + spec.name()
                + "' starts with the reserved prefix '"
                + AttributeNames.RESERVED_PREFIX
                + "' that Stowage uses for its own attributes; it cannot be written");
      }
      int hash = name.hashCode();
      boolean partition = hash == partitionHash && name.equals(partitionName);
      if (partition || hash == sortHash && name.equals(sortName)) {
        // Keys are stored byte for byte: the driver looks them up by the raw key value.
        if (partition) {
          partitionValue = value;
        } else {
          sortValue = value;
        }
        names[n] = name;
        values[n++] = value;
        continue;
      }
      if (Nesting.levels(value) > AttributeValue.MAX_NESTING) {
        // (The message is only built for a value that fails: this runs for every attribute.)
        Nesting.check(
            "attribute '" + name + "' of item " + key + " in table '" + spec.name() + "'", value);
      }
      names[n] = name;
      if (plainOnly) {
        // No attribute declares a codec: every value is stored exactly as given.
        values[n++] = value;
        continue;
      }
      AttributePolicy policy = spec.policy(name);
      values[n++] =
          codec.encode(
              spec.name(), key, name, policy, value, policy.compressed() ? compression : null);
    }
    int userCount = n;
    for (int i = 0; i < layouts.size(); i++) {
      IndexLayout layout = layouts.get(i);
      if (spec.indexes().get(i).isNative()) {
        // The backend indexes a native index's own attributes: nothing to synthesize.
        checkNativeTypes(user, key, layout);
        continue;
      }
      Synthesized synthesized = synthesize(i, user, key, strictIndexes);
      if (synthesized != null) {
        names[n] = layout.partitionAttribute();
        values[n++] = synthesized.partition();
        names[n] = layout.sortAttribute();
        values[n++] = synthesized.sort();
      }
    }
    if (!requestIds.isEmpty()) {
      List<AttributeValue> ids = new ArrayList<>();
      requestIds.forEach(id -> ids.add(AttributeValue.of(id)));
      names[n] = REQUEST_IDS;
      values[n++] = AttributeValue.list(ids);
    }
    if (writeId != null) {
      names[n] = WRITE_ID;
      values[n++] = AttributeValue.of(writeId);
    }
    // The reserved names follow each other in name order (see reservedInOrder); when the user's
    // last name sorts before them too, the arrays are in order already and need no sorting.
    Item stored =
        reservedInOrder
                && (userCount == 0
                    || userCount == n
                    || Utf8Order.compare(names[userCount - 1], names[userCount]) < 0)
            ? ItemAccess.ofSorted(names, values, n)
            : ItemAccess.ofChecked(names, values, n);
    if (key.partition().equals(partitionValue)
        && java.util.Objects.equals(key.sortOrNull(), sortValue)) {
      // The stored item holds exactly this key: the driver and the metrics read it from here.
      ItemAccess.rememberKey(stored, keys, key);
    }
    return stored;
  }

  /**
   * The values of one index for one item.
   *
   * @param partition the stored partition value: format byte, definition fingerprint and partition
   *     tuple, or its long form when longer than the backend indexes
   * @param sort the stored sort value: the sort tuple, or its bucket when longer than the backend
   *     indexes
   * @param fullPartition the partition value in its full form ({@code 02 || fingerprint || tuple}),
   *     whatever its length: what queries compare for identity
   * @param fullSort the whole sort tuple: what queries order and compare ranges by
   */
  record Synthesized(
      BinaryValue partition, BinaryValue sort, BinaryValue fullPartition, BinaryValue fullSort) {}

  /** How an item's stored index values compare with what its attributes give now. */
  enum IndexState {
    /** Every index holds what the item's attributes give (or nothing, where they give none). */
    CURRENT,
    /** Some index lacks values the item's attributes give; none holds wrong values. */
    MISSING,
    /**
     * Some index holds values the item's attributes no longer give: written for other values
     * (another tool changed an indexed attribute and left the synthesized ones), under another
     * definition of the index, or for an item that now belongs to no entry of it.
     */
    STALE
  }

  /**
   * What index {@code i} of the spec holds for an item with these attributes.
   *
   * @param attributes the user attributes, or a stored item (indexed attributes are never encoded
   *     or moved to a blob, so a stored item holds them as written)
   * @param key the item's key, for messages
   * @param strict true to throw for a value the index cannot hold, false to answer null for it
   * @return the values, or null if the item is not in the index
   * @throws InvalidRequestException if strict and an indexed value is not a string, number or
   *     binary value
   * @throws ItemTooLargeException if strict and a side exceeds the indexed-value limit
   */
  Synthesized synthesize(int i, Item attributes, Key key, boolean strict) {
    IndexSpec index = spec.indexes().get(i);
    if (index.isNative()) {
      return null;
    }
    // The partition values are mostly those of the last item (index partitions are few): compared
    // with them where they stand, without a list.
    BinaryValue pv = lastPartitionValue(i, attributes, index.partitionAttributes());
    List<KeyValue> p =
        pv != null ? null : indexValues(attributes, index, index.partitionAttributes(), strict);
    List<KeyValue> s = indexValues(attributes, index, index.sortAttributes(), strict);
    if ((pv == null && p == null) || s == null) {
      return null;
    }
    if (pv == null) {
      pv = partitionValue(i, p);
    }
    BinaryValue sv = TupleEncoding.binary(s);
    int partitionBytes = pv.value().size() - DriverLimits.INDEX_VALUE_OVERHEAD;
    int sortBytes =
        sv.value().size()
            - (DriverLimits.INDEX_VALUE_OVERHEAD - IndexValues.PARTITION_PREFIX_BYTES);
    if (!strict
        && (partitionBytes > limits.maxIndexedValueBytes()
            || sortBytes > limits.maxIndexedValueBytes())) {
      return null;
    }
    checkIndexed(index, key, "partition", index.partitionAttributes(), partitionBytes);
    checkIndexed(index, key, "sort", index.sortAttributes(), sortBytes);
    return stored(pv, sv, limits);
  }

  /**
   * The full partition value of index {@code i} for these partition values. Index partitions are
   * few and shared by many items (a status, a tenant, a group), so the last one encoded per index
   * is kept: the same values give the same bytes.
   */
  private BinaryValue partitionValue(int i, List<KeyValue> values) {
    LastPartition last = lastPartitions[i];
    if (last != null && last.values().equals(values)) {
      return last.value();
    }
    BinaryValue v = IndexValues.partition(fingerprints[i], values);
    lastPartitions[i] = new LastPartition(List.copyOf(values), v);
    return v;
  }

  /**
   * The last partition value encoded for index {@code i} if the item's partition attributes hold
   * the same values, else null (also when one is missing or no key value: the caller decides).
   */
  private BinaryValue lastPartitionValue(int i, Item attributes, List<String> names) {
    LastPartition last = lastPartitions[i];
    if (last == null) {
      return null;
    }
    for (int j = 0; j < names.size(); j++) {
      AttributeValue v = attributes.attributes().get(names.get(j));
      if (KeyValues.asKey(v) == null || !v.equals(last.values().get(j))) {
        return null;
      }
    }
    return last.value();
  }

  /** An index's partition values and their encoding (immutable, so safe to share racily). */
  private record LastPartition(List<KeyValue> values, BinaryValue value) {}

  /**
   * The stored forms of an index's full partition value and sort tuple on a backend with {@code
   * limits}: long forms where they exceed {@link DriverLimits#maxIndexTupleBytes}.
   */
  static Synthesized stored(BinaryValue fullPartition, BinaryValue fullSort, DriverLimits limits) {
    long max = limits.maxIndexTupleBytes();
    Bytes p = IndexValues.storedPartition(fullPartition.value(), max);
    Bytes s = IndexValues.storedSort(fullSort.value(), max);
    return new Synthesized(
        p == fullPartition.value() ? fullPartition : AttributeValue.of(p),
        s == fullSort.value() ? fullSort : AttributeValue.of(s),
        fullPartition,
        fullSort);
  }

  /** Like {@link #synthesize(int, Item, Key, boolean)} for the index named {@code index}. */
  Synthesized synthesize(String index, Item attributes, Key key, boolean strict) {
    for (int i = 0; i < layouts.size(); i++) {
      if (layouts.get(i).name().equals(index)) {
        return synthesize(i, attributes, key, strict);
      }
    }
    throw new IllegalArgumentException("no index '" + index + "' in table '" + spec.name() + "'");
  }

  /**
   * Compares the index values a stored item holds with those its attributes give now (leniently: a
   * value no index can hold gives no entry). Only the indexes of the current spec are compared.
   */
  IndexState indexState(Item stored, Key key) {
    IndexState state = IndexState.CURRENT;
    for (int i = 0; i < layouts.size(); i++) {
      IndexLayout layout = layouts.get(i);
      if (spec.indexes().get(i).isNative()) {
        continue;
      }
      Synthesized now = synthesize(i, stored, key, false);
      AttributeValue p = stored.find(layout.partitionAttribute()).orElse(null);
      AttributeValue s = stored.find(layout.sortAttribute()).orElse(null);
      if (now == null) {
        if (p != null || s != null) {
          return IndexState.STALE;
        }
      } else if (p == null && s == null) {
        state = IndexState.MISSING;
      } else if (!now.partition().equals(p) || !now.sort().equals(s)) {
        return IndexState.STALE;
      }
    }
    return state;
  }

  /**
   * Refuses a value of another type than a native index declares for its attribute: the backend
   * would refuse it (DynamoDB rejects a GSI key of the wrong type) or index it where no query of
   * the index finds it.
   */
  private void checkNativeTypes(Item user, Key key, IndexLayout layout) {
    checkNativeType(
        user, key, layout, layout.partitionAttribute(), layout.partitionType(), "partition");
    if (layout.sortAttribute() != null) {
      checkNativeType(user, key, layout, layout.sortAttribute(), layout.sortType(), "sort");
    }
  }

  private void checkNativeType(
      Item user,
      Key key,
      IndexLayout layout,
      String attribute,
      dev.stowage.item.AttributeType type,
      String side) {
    AttributeValue v = user.find(attribute).orElse(null);
    if (v != null && v.type() != type) {
      throw new InvalidRequestException(
          "attribute '"
              + attribute
              + "' of item "
              + key
              + " in table '"
              + spec.name()
              + "' is the "
              + side
              + " attribute of native index '"
              + layout.name()
              + "' (backend index '"
              + layout.nativeName()
              + "'), which holds "
              + type
              + " values, not "
              + v.type());
    }
  }

  /**
   * Holds one side of an index to {@link DriverLimits#maxIndexedValueBytes}, counted as documented
   * there: the synthesized value less its overhead (the partition side's fingerprint included).
   */
  private void checkIndexed(
      IndexSpec index, Key key, String side, List<String> attributes, int valueBytes) {
    if (valueBytes > limits.maxIndexedValueBytes()) {
      throw new ItemTooLargeException(
          "the "
              + side
              + " values of index '"
              + index.name()
              + "' ("
              + String.join(", ", attributes)
              + ") of item "
              + key
              + " in table '"
              + spec.name()
              + "' take "
              + valueBytes
              + " bytes, over the backend's limit of "
              + limits.maxIndexedValueBytes()
              + " bytes for indexed values (UTF-8 bytes of strings and bytes of binary values, a"
              + " zero byte counting twice, 3 more for each value after the first)");
    }
  }

  private static List<KeyValue> indexValues(
      Item user, IndexSpec index, List<String> names, boolean strict) {
    List<KeyValue> values = new ArrayList<>(names.size());
    for (String n : names) {
      AttributeValue v = user.find(n).orElse(null);
      if (v == null) {
        return null;
      }
      KeyValue kv = KeyValues.asKey(v);
      if (kv == null) {
        if (!strict) {
          return null;
        }
        throw new InvalidRequestException(
            "attribute '"
                + n
                + "' is used by index '"
                + index.name()
                + "' and must be a string, number or binary value, not "
                + v.type());
      }
      values.add(kv);
    }
    return values;
  }

  /**
   * The user item of a stored (restored) item: reserved attributes dropped, codecs undone.
   *
   * @param needed attributes to decode, or null for all (others are left out)
   */
  Item decode(Item stored, Key key, Set<String> needed) {
    if (needed == null && readsAsStored(stored)) {
      // Nothing to drop and nothing to decode: the stored item is the user item (same class, same
      // names, immutable), so it is handed out as it is instead of being rebuilt.
      return stored;
    }
    // The stored item's names are checked and in order; without its reserved ones they are valid
    // user names, so the decoded item takes the arrays as they are built (no second sort, no copy).
    int room = stored.size();
    String[] names = new String[room];
    AttributeValue[] values = new AttributeValue[room];
    int n = 0;
    String[] storedNames = ItemAccess.names(stored);
    AttributeValue[] storedValues = ItemAccess.values(stored);
    if (storedNames == null) {
      storedNames = stored.attributes().keySet().toArray(String[]::new);
      storedValues = stored.attributes().values().toArray(AttributeValue[]::new);
    }
    for (int i = 0; i < room; i++) {
      String name = storedNames[i];
      AttributeValue value = storedValues[i];
      if (AttributeNames.isReserved(name)) {
        continue;
      }
      boolean isKey = spec.keySchema().isKeyAttribute(name);
      if (needed != null && !isKey && !needed.contains(name)) {
        continue;
      }
      names[n] = name;
      // With no codec declared only a binary value can be an envelope (left from an earlier
      // policy); anything else reads as stored, as the codec would give it back.
      values[n++] =
          isKey || plainOnly && !(value instanceof BinaryValue)
              ? value
              : codecs.decode(spec.name(), key, name, spec.policy(name), value);
    }
    return ItemAccess.ofSorted(names, values, n);
  }

  /**
   * True if decoding would give the stored item back unchanged: it holds no reserved attribute, and
   * every attribute is a key attribute or a plain one (no codec declared) whose value is not binary
   * (only a binary value can be an envelope left from an earlier policy).
   */
  private boolean readsAsStored(Item stored) {
    if (!plainOnly) {
      return false;
    }
    String[] names = ItemAccess.names(stored);
    if (names != null) {
      AttributeValue[] values = ItemAccess.values(stored);
      for (int i = 0, n = stored.size(); i < n; i++) {
        if (values[i] instanceof BinaryValue || AttributeNames.isReserved(names[i])) {
          return false;
        }
      }
      return true;
    }
    for (Map.Entry<String, AttributeValue> e : stored.attributes().entrySet()) {
      if (e.getValue() instanceof BinaryValue || AttributeNames.isReserved(e.getKey())) {
        return false;
      }
    }
    return true;
  }

  /** The request ids recorded in a stored item, oldest first. */
  static List<String> requestIds(Item stored) {
    AttributeValue v = stored == null ? null : stored.find(REQUEST_IDS).orElse(null);
    List<String> ids = new ArrayList<>();
    if (v instanceof ListValue l) {
      for (AttributeValue x : l.values()) {
        if (x instanceof StringValue s) {
          ids.add(s.value());
        }
      }
    }
    return ids;
  }

  /** A fresh write id: 96 random bits, base64url. */
  static String newWriteId() {
    byte[] b = new byte[12];
    RANDOM.nextBytes(b);
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The write id recorded in a stored item, or null. */
  static String writeId(Item stored) {
    AttributeValue v = stored == null ? null : stored.find(WRITE_ID).orElse(null);
    return v instanceof StringValue s ? s.value() : null;
  }

  /** The first request id of {@code before} that {@code after} no longer holds, or null. */
  static String forgotten(List<String> before, List<String> after) {
    for (String id : before) {
      if (!after.contains(id)) {
        return id;
      }
    }
    return null;
  }

  /** {@code ids} plus {@code added}, keeping the newest {@code window}. */
  static List<String> remember(List<String> ids, String added, int window) {
    List<String> out = new ArrayList<>(ids);
    if (added != null) {
      out.remove(added);
      out.add(added);
    }
    while (out.size() > window) {
      out.remove(0);
    }
    return out;
  }
}
