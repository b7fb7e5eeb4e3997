package dev.stowage.memory;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Item;
import dev.stowage.spi.SizeModel;
import java.util.Map;

/**
 * A size model following DynamoDB's item-size rules (attribute name bytes plus value bytes: strings
 * as UTF-8, numbers at most 21 bytes, 3 bytes of overhead per list or map plus 1 per element),
 * which is also a safe upper bound for the other backends' rules when strings are counted as {@code
 * charsPerByte} bytes per UTF-16 unit. Thread-safe; it keeps the counts of recent attribute names
 * (see {@link #nameBytes}), which never go stale: a string's bytes never change.
 */
public final class MemorySizeModel implements SizeModel {
  private final int utf16Factor;

  private MemorySizeModel(int utf16Factor) {
    this.utf16Factor = utf16Factor;
  }

  /** Strings counted as UTF-8 (DynamoDB, Datastore). */
  public static MemorySizeModel utf8() {
    return new MemorySizeModel(0);
  }

  /** Strings counted as UTF-16, two bytes per char (Azure Table Storage). */
  public static MemorySizeModel utf16() {
    return new MemorySizeModel(2);
  }

  @Override
  public long attributeBytes(String name, AttributeValue value) {
    return nameBytes(name) + valueBytes(value);
  }

  /**
   * A name's bytes, as {@link #text}: the same few names come back on every item of a table, so the
   * count of the last name seen in each of {@link #NAMES} slots (picked by the hash code a name
   * keeps once computed) is kept and found by identity. A miss counts the name and takes the slot.
   */
  private long nameBytes(String name) {
    int slot = name.hashCode() & (NAMES - 1);
    NameBytes known = names[slot];
    if (known != null && known.name == name) {
      return known.bytes;
    }
    long bytes = text(name);
    names[slot] = new NameBytes(name, bytes);
    return bytes;
  }

  /** Slots of {@link #nameBytes}' cache. */
  private static final int NAMES = 64;

  /**
   * A name and its bytes, immutable: threads racing on a slot at worst replace each other's entry,
   * and a reader sees either entry whole (final fields).
   */
  private record NameBytes(String name, long bytes) {}

  private final NameBytes[] names = new NameBytes[NAMES];

  @Override
  public long itemBytes(Item item) {
    String[] names = dev.stowage.internal.ItemAccess.names(item);
    if (names != null) {
      AttributeValue[] values = dev.stowage.internal.ItemAccess.values(item);
      long total = 0;
      for (int i = 0, n = item.size(); i < n; i++) {
        total += attributeBytes(names[i], values[i]);
      }
      return total;
    }
    long total = 0;
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      total += attributeBytes(e.getKey(), e.getValue());
    }
    return total;
  }

  private long text(String s) {
    return utf16Factor == 0 ? utf8Length(s) : (long) s.length() * utf16Factor;
  }

  /**
   * The length of a string in UTF-8, counted without encoding it (a valid surrogate pair takes 4
   * bytes, a lone surrogate 1, as its replacement {@code ?} does).
   */
  static long utf8Length(String s) {
    int n = s.length();
    long bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // 4 bytes for the two chars
        i++;
      } else if (Character.isSurrogate(c)) {
        // encoded as '?', one byte
      } else {
        bytes += 2;
      }
    }
    return bytes;
  }

  private long valueBytes(AttributeValue v) {
    if (v instanceof StringValue s) {
      return text(s.value());
    }
    if (v instanceof BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.NumberValue) {
      return 21;
    }
    if (v instanceof ListValue l) {
      long n = 3;
      for (AttributeValue x : l.values()) {
        n += 1 + valueBytes(x);
      }
      return n;
    }
    if (v instanceof MapValue m) {
      long n = 3;
      for (Map.Entry<String, AttributeValue> e : m.values().entrySet()) {
        n += 1 + text(e.getKey()) + valueBytes(e.getValue());
      }
      return n;
    }
    if (v instanceof StringSetValue s) {
      return s.values().stream().mapToLong(this::text).sum();
    }
    if (v instanceof NumberSetValue s) {
      return 21L * s.values().size();
    }
    if (v instanceof BinarySetValue s) {
      return s.values().stream().mapToLong(x -> x.size()).sum();
    }
    return 1; // boolean, null
  }
}
