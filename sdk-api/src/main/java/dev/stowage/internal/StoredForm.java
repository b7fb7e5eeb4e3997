package dev.stowage.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
  private final DriverLimits limits;
  private final List<IndexLayout> layouts = new ArrayList<>();

  StoredForm(TableSpec spec, Codecs codecs, DriverLimits limits) {
    this.spec = spec;
    this.codecs = codecs;
    this.limits = limits;
    spec.indexes().forEach(i -> layouts.add(IndexLayout.of(i)));
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
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, AttributeValue> e : user.attributes().entrySet()) {
      String name = e.getKey();
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
      if (spec.keySchema().isKeyAttribute(name)) {
        // Keys are stored byte for byte: the driver looks them up by the raw key value.
        out.put(name, e.getValue());
        continue;
      }
      Nesting.check(
          "attribute '" + name + "' of item " + key + " in table '" + spec.name() + "'",
          e.getValue());
      AttributePolicy policy = spec.policy(name);
      out.put(name, codecs.encode(spec.name(), key, name, policy, e.getValue()));
    }
    for (int i = 0; i < layouts.size(); i++) {
      IndexSpec index = spec.indexes().get(i);
      IndexLayout layout = layouts.get(i);
      if (index.isNative()) {
        checkNativeTypes(user, key, layout);
        continue;
      }
      List<KeyValue> p = indexValues(user, index, index.partitionAttributes());
      List<KeyValue> s = indexValues(user, index, index.sortAttributes());
      if (p != null && s != null) {
        var pv = IndexValues.partition(index, p);
        var sv = TupleEncoding.binary(s);
        checkIndexed(
            index,
            key,
            "partition",
            index.partitionAttributes(),
            pv.value().size() - DriverLimits.INDEX_VALUE_OVERHEAD);
        checkIndexed(
            index,
            key,
            "sort",
            index.sortAttributes(),
            sv.value().size()
                - (DriverLimits.INDEX_VALUE_OVERHEAD - IndexValues.PARTITION_PREFIX_BYTES));
        out.put(layout.partitionAttribute(), pv);
        out.put(layout.sortAttribute(), sv);
      }
    }
    if (!requestIds.isEmpty()) {
      List<AttributeValue> ids = new ArrayList<>();
      requestIds.forEach(id -> ids.add(AttributeValue.of(id)));
      out.put(REQUEST_IDS, AttributeValue.list(ids));
    }
    if (writeId != null) {
      out.put(WRITE_ID, AttributeValue.of(writeId));
    }
    return ItemAccess.ofStored(out);
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

  private static List<KeyValue> indexValues(Item user, IndexSpec index, List<String> names) {
    List<KeyValue> values = new ArrayList<>(names.size());
    for (String n : names) {
      AttributeValue v = user.find(n).orElse(null);
      if (v == null) {
        return null;
      }
      if (!(v instanceof KeyValue kv)) {
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
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, AttributeValue> e : stored.attributes().entrySet()) {
      String name = e.getKey();
      if (AttributeNames.isReserved(name)) {
        continue;
      }
      boolean isKey = spec.keySchema().isKeyAttribute(name);
      if (needed != null && !isKey && !needed.contains(name)) {
        continue;
      }
      out.put(
          name,
          isKey
              ? e.getValue()
              : codecs.decode(spec.name(), key, name, spec.policy(name), e.getValue()));
    }
    return Item.of(out);
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
