package dev.stowage.internal;

import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Recomputes the synthesized index attributes of an item in stored form, exactly as {@link
 * StoredForm#encode} writes them, for tools that copy stored forms ({@link
 * dev.stowage.spi.StoredItems#withIndexValues}). Stateless and thread-safe.
 */
public final class IndexAttributes {
  private IndexAttributes() {}

  /**
   * {@code stored} with every {@code stowage:ix:} attribute replaced by those {@code spec}'s
   * indexes give it; every other attribute is kept as it is.
   */
  public static Item recompute(TableSpec spec, DriverLimits limits, Item stored) {
    Key key = spec.keySchema().keyOf(stored);
    // Index attributes and key attributes are never encoded, so their stored values are the
    // application's values: the user item StoredForm needs holds just those.
    Map<String, AttributeValue> plain = new LinkedHashMap<>();
    for (var e : stored.attributes().entrySet()) {
      String name = e.getKey();
      if (spec.keySchema().isKeyAttribute(name) || spec.isIndexed(name)) {
        plain.put(name, e.getValue());
      }
    }
    Item encoded =
        new StoredForm(spec, Codecs.defaults(), limits)
            .encode(ItemAccess.ofStored(plain), key, List.of(), null);
    Map<String, AttributeValue> out = new LinkedHashMap<>();
    for (var e : stored.attributes().entrySet()) {
      if (!e.getKey().startsWith(IndexLayout.ATTRIBUTE_PREFIX)) {
        out.put(e.getKey(), e.getValue());
      }
    }
    for (var e : encoded.attributes().entrySet()) {
      if (e.getKey().startsWith(IndexLayout.ATTRIBUTE_PREFIX)) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return ItemAccess.ofStored(out);
  }
}
