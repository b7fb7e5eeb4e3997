package dev.stowage.console.internal;

import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.KeySchema;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.console.internal.json.ItemJson;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.AttributeNames;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.CanonicalEncoding;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shows a stored item (as the driver holds it) the way the application sees it, attribute by
 * attribute: decompressed, decrypted when the codecs hold the keys and labelled "encrypted" when
 * they do not, overflowed attributes listed with the blob's size (fetched on demand), and the
 * stored form beside it. Values travel to the browser as JSON text written here, so numbers keep
 * every digit. Stateless; thread-safe.
 */
final class ItemView {
  /** Longest stored-form value text sent to the browser; longer ones are cut with their size. */
  private static final int MAX_STORED_TEXT = 600;

  private final TableSpec spec;
  private final Codecs codecs;

  ItemView(TableSpec spec, Codecs codecs) {
    this.spec = spec;
    this.codecs = codecs;
  }

  /** The key of a stored item, as the JSON object the browser sends back. */
  String keyJson(Item stored) {
    return Json.write(ItemJson.toJson(keyItem(stored), ItemJson.NumberStyle.NUMBER));
  }

  Item keyItem(Item stored) {
    KeySchema ks = spec.keySchema();
    Map<String, AttributeValue> key = new LinkedHashMap<>();
    key.put(ks.partitionName(), stored.get(ks.partitionName()));
    ks.sortName().ifPresent(s -> key.put(s, stored.get(s)));
    return Item.of(key);
  }

  /**
   * A fingerprint of the stored form: any write to the item (every write re-encrypts) changes it.
   */
  static String fingerprint(Item stored) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(CanonicalEncoding.encode(stored));
      return HexFormat.of().formatHex(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The browser's view of one stored item. */
  Map<String, Object> render(Item stored) {
    Key key = spec.keySchema().keyOf(stored);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("key", keyJson(stored));
    out.put("keyLabel", keyLabel(stored));
    out.put("fingerprint", fingerprint(stored));
    List<Object> attributes = new ArrayList<>();
    List<Object> storedForm = new ArrayList<>();
    OverflowPointer pointer = null;
    for (String name : ordered(stored)) {
      AttributeValue v = stored.get(name);
      storedForm.add(storedAttribute(name, v));
      if (AttributeNames.isReserved(name)) {
        if (name.equals(OverflowPointer.ATTRIBUTE)) {
          pointer = OverflowPointer.of(v).orElse(null);
        }
        continue;
      }
      attributes.add(attribute(key, name, v));
    }
    // Overflowed attributes come back whole through the core when editing; values that cannot be
    // decoded here (no keys, or failing verification) could not be written back.
    boolean editable =
        attributes.stream()
            .map(a -> ((Map<?, ?>) a))
            .noneMatch(a -> a.get("text") == null && !"overflowed".equals(a.get("kind")));
    if (stored.has(OverflowPointer.ATTRIBUTE)) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("blobSize", pointer == null ? null : pointer.size());
      o.put("names", pointer == null ? List.of() : pointer.names());
      out.put("overflow", o);
      if (pointer != null) {
        for (String n : pointer.names()) {
          Map<String, Object> a = new LinkedHashMap<>();
          a.put("name", n);
          a.put("kind", "overflowed");
          a.put("size", pointer.size());
          a.put("text", null);
          attributes.add(a);
        }
      }
    }
    out.put("attributes", attributes);
    out.put("stored", storedForm);
    out.put("decodable", editable);
    return out;
  }

  /** The app-side view of one decoded user item (for example an overflowed attribute fetched). */
  static Map<String, Object> plainValue(AttributeValue v) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("text", valueText(v));
    a.put("size", CanonicalEncoding.encode(v).length);
    a.put("type", v.type().toString());
    return a;
  }

  private Map<String, Object> attribute(Key key, String name, AttributeValue v) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("name", name);
    if (spec.keySchema().isKeyAttribute(name)) {
      a.put("kind", "key");
      a.put("type", v.type().toString());
      a.put("text", valueText(v));
      return a;
    }
    AttributePolicy policy = spec.policy(name);
    boolean ciphertext = codecs.needsRewrite(AttributePolicy.PLAIN, v);
    try {
      AttributeValue plain = codecs.decode(spec.name(), key, name, policy, v);
      a.put("kind", ciphertext ? "encrypted" : plain.equals(v) ? "plain" : "compressed");
      a.put("type", plain.type().toString());
      a.put("text", valueText(plain));
      a.put("size", CanonicalEncoding.encode(plain).length);
      if (!plain.equals(v)) {
        a.put("storedSize", storedSize(v));
      }
    } catch (IntegrityException e) {
      if (ciphertext && codecs.keys().isEmpty()) {
        a.put("kind", "encrypted");
        a.put("locked", true);
        a.put("note", "encrypted: start the console with the keyset to read it");
      } else {
        a.put("kind", "unreadable");
        a.put("note", String.valueOf(e.getMessage()));
      }
      a.put("text", null);
      a.put("storedSize", storedSize(v));
    }
    return a;
  }

  /**
   * A condition that holds only while the item is as {@code stored} shows it: every attribute equal
   * to its decoded value, or, where the value cannot be compared (encrypted, overflowed or
   * unreadable here), present. Together with the fingerprint check before the write this makes an
   * edit fail when anything changed meanwhile.
   */
  Condition unchanged(Item stored) {
    Key key = spec.keySchema().keyOf(stored);
    List<Condition> all = new ArrayList<>();
    for (String name : stored.names()) {
      if (spec.keySchema().isKeyAttribute(name)) {
        continue;
      }
      if (AttributeNames.isReserved(name)) {
        if (name.equals(OverflowPointer.ATTRIBUTE)) {
          OverflowPointer.of(stored.get(name))
              .ifPresent(p -> p.names().forEach(n -> all.add(Condition.exists(n))));
        }
        continue;
      }
      AttributePolicy policy = spec.policy(name);
      AttributeValue v = stored.get(name);
      if (policy.encrypted()) {
        // The core refuses any condition on an encrypted attribute: the fingerprint check before
        // the write is what notices a change to one.
        continue;
      }
      if (codecs.needsRewrite(AttributePolicy.PLAIN, v)) {
        all.add(Condition.exists(name));
        continue;
      }
      try {
        all.add(Condition.eq(name, codecs.decode(spec.name(), key, name, policy, v)));
      } catch (IntegrityException e) {
        all.add(Condition.exists(name));
      }
    }
    return all.isEmpty()
        ? Condition.exists(spec.keySchema().partitionName())
        : Condition.and(all.toArray(Condition[]::new));
  }

  private String keyLabel(Item stored) {
    KeySchema ks = spec.keySchema();
    StringBuilder b = new StringBuilder(valueText(stored.get(ks.partitionName())));
    ks.sortName().ifPresent(s -> b.append(" / ").append(valueText(stored.get(s))));
    return b.toString();
  }

  private List<String> ordered(Item stored) {
    List<String> names = new ArrayList<>();
    KeySchema ks = spec.keySchema();
    names.add(ks.partitionName());
    ks.sortName().ifPresent(names::add);
    stored.names().stream()
        .filter(n -> !names.contains(n) && !AttributeNames.isReserved(n))
        .sorted()
        .forEach(names::add);
    stored.names().stream().filter(AttributeNames::isReserved).sorted().forEach(names::add);
    names.removeIf(n -> !stored.has(n));
    return names;
  }

  private Map<String, Object> storedAttribute(String name, AttributeValue v) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("name", name);
    a.put("type", v.type().toString());
    String text = valueText(v);
    int size = storedSize(v);
    if (text.length() > MAX_STORED_TEXT) {
      text = text.substring(0, MAX_STORED_TEXT) + "… (" + size + " bytes)";
    }
    a.put("text", text);
    a.put("size", size);
    a.put("note", storedNote(name, v));
    return a;
  }

  private String storedNote(String name, AttributeValue v) {
    if (name.equals(OverflowPointer.ATTRIBUTE)) {
      return OverflowPointer.of(v)
          .map(p -> "overflow pointer: blob " + p.blobKey() + ", " + p.size() + " bytes")
          .orElse("overflow pointer");
    }
    if (name.startsWith("stowage:ix:")) {
      return "index value (maintained by Stowage)";
    }
    if (AttributeNames.isReserved(name)) {
      return "reserved by Stowage";
    }
    if (spec.keySchema().isKeyAttribute(name)) {
      return "key";
    }
    if (codecs.needsRewrite(AttributePolicy.PLAIN, v)) {
      return "encrypted envelope";
    }
    if (spec.policy(name).compressed() && v instanceof AttributeValue.BinaryValue) {
      return "compressed envelope";
    }
    return "";
  }

  private static int storedSize(AttributeValue v) {
    return v instanceof AttributeValue.BinaryValue b
        ? b.value().size()
        : CanonicalEncoding.encode(v).length;
  }

  static String valueText(AttributeValue v) {
    return Json.write(ItemJson.toJson(v, ItemJson.NumberStyle.NUMBER));
  }
}
