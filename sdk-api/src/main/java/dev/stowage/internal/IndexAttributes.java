package dev.stowage.internal;

import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import java.util.List;
import java.util.Map;

/**
 * Recomputes the synthesized index attributes of an item in stored form, exactly as {@link
 * StoredForm#encode} writes them, for tools that copy stored forms ({@link
 * dev.stowage.spi.StoredItems#withIndexValues}). Thread-safe.
 */
public final class IndexAttributes {
  /**
   * The form of the spec and limits of the last call: a copying tool recomputes every item of a
   * table with the same two, and building a form (index layouts, fingerprints, reserved names) for
   * each item cost more than encoding its index values. A form is immutable apart from its cache of
   * the last partition values (immutable records), so threads share it as a table does.
   */
  private static volatile Cached last;

  private record Cached(TableSpec spec, DriverLimits limits, StoredForm form) {}

  private IndexAttributes() {}

  /** The form for {@code spec} and {@code limits}: the last one if it has the same two. */
  private static StoredForm form(TableSpec spec, DriverLimits limits) {
    Cached c = last;
    if (c != null && c.spec() == spec && c.limits() == limits) {
      return c.form();
    }
    StoredForm form = new StoredForm(spec, Codecs.defaults(), limits);
    last = new Cached(spec, limits, form);
    return form;
  }

  /**
   * {@code stored} with every {@code stowage:ix:} attribute replaced by those {@code spec}'s
   * indexes give it; every other attribute is kept as it is.
   */
  public static Item recompute(TableSpec spec, DriverLimits limits, Item stored) {
    Key key = spec.keySchema().keyOf(stored);
    String[] names = ItemAccess.names(stored);
    AttributeValue[] values = ItemAccess.values(stored);
    int size = stored.size();
    if (names == null) {
      names = new String[size];
      values = new AttributeValue[size];
      int i = 0;
      for (Map.Entry<String, AttributeValue> e : stored.attributes().entrySet()) {
        names[i] = e.getKey();
        values[i++] = e.getValue();
      }
    }
    // Index attributes and key attributes are never encoded, so their stored values are the
    // application's values: the user item StoredForm needs holds just those. (Arrays, not maps:
    // a copying tool runs this for every item; the names were checked by the stored item.)
    String[] plainNames = new String[size];
    AttributeValue[] plainValues = new AttributeValue[size];
    int plain = 0;
    for (int i = 0; i < size; i++) {
      if (spec.keySchema().isKeyAttribute(names[i]) || spec.isIndexed(names[i])) {
        plainNames[plain] = names[i];
        plainValues[plain++] = values[i];
      }
    }
    Item encoded =
        form(spec, limits)
            .encode(ItemAccess.ofChecked(plainNames, plainValues, plain), key, List.of(), null);
    String[] outNames = new String[size + encoded.size()];
    AttributeValue[] outValues = new AttributeValue[outNames.length];
    int out = 0;
    for (int i = 0; i < size; i++) {
      if (!names[i].startsWith(IndexLayout.ATTRIBUTE_PREFIX)) {
        outNames[out] = names[i];
        outValues[out++] = values[i];
      }
    }
    for (Map.Entry<String, AttributeValue> e : encoded.attributes().entrySet()) {
      if (e.getKey().startsWith(IndexLayout.ATTRIBUTE_PREFIX)) {
        outNames[out] = e.getKey();
        outValues[out++] = e.getValue();
      }
    }
    Item result = ItemAccess.ofChecked(outNames, outValues, out);
    ItemAccess.rememberKey(result, spec.keySchema(), key);
    return result;
  }
}
