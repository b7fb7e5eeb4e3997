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
 * index values synthesized, request ids recorded; and back. Thread-safe.
 */
final class StoredForm {
  /** Reserved attribute listing the request ids recently applied to an item. */
  static final String REQUEST_IDS = "__rq";

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
   */
  Item encode(Item user, Key key, List<String> requestIds) {
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (Map.Entry<String, AttributeValue> e : user.attributes().entrySet()) {
      String name = e.getKey();
      AttributePolicy policy = spec.policy(name);
      out.put(name, codecs.encode(spec.name(), key, name, policy, e.getValue()));
    }
    for (int i = 0; i < layouts.size(); i++) {
      IndexSpec index = spec.indexes().get(i);
      IndexLayout layout = layouts.get(i);
      List<KeyValue> p = indexValues(user, index, index.partitionAttributes());
      List<KeyValue> s = indexValues(user, index, index.sortAttributes());
      if (p != null && s != null) {
        var pv = IndexValues.partition(index, p);
        var sv = TupleEncoding.binary(s);
        if (pv.value().size() > limits.maxIndexedValueBytes()
            || sv.value().size() > limits.maxIndexedValueBytes()) {
          throw new ItemTooLargeException(
              "the values of index '"
                  + index.name()
                  + "' of item "
                  + key
                  + " in table '"
                  + spec.name()
                  + "' take more than the backend's "
                  + limits.maxIndexedValueBytes()
                  + " bytes for indexed values");
        }
        out.put(layout.partitionAttribute(), pv);
        out.put(layout.sortAttribute(), sv);
      }
    }
    if (!requestIds.isEmpty()) {
      List<AttributeValue> ids = new ArrayList<>();
      requestIds.forEach(id -> ids.add(AttributeValue.of(id)));
      out.put(REQUEST_IDS, AttributeValue.list(ids));
    }
    return Item.ofStored(out);
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
