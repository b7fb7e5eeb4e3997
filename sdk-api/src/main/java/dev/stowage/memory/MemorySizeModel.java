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
 * charsPerByte} bytes per UTF-16 unit. Stateless and thread-safe.
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
    return text(name) + valueBytes(value);
  }

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
