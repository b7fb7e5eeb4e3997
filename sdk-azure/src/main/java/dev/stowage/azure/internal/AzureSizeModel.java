package dev.stowage.azure.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.SizeModel;
import java.util.Map;

/**
 * Counts item bytes the way Azure Table Storage does, and never less than Azurite does.
 *
 * <p>Azure's documented entity size: 4 bytes + 2 × (PartitionKey + RowKey characters) + per
 * property 8 bytes + 2 × name characters + value (String: 4 + 2 × UTF-16 chars; Binary: 4 + bytes;
 * Int64, Double, DateTime: 8; Int32: 4; Guid: 16; Boolean: 1). Azurite instead measures the UTF-8
 * JSON request body (Binary as base64, each property with an {@code @odata.type} annotation). This
 * model takes the larger of the two for the item, counts key attributes as properties too, and
 * budgets both keys at their maximum length, so it over-counts slightly and never under-counts.
 *
 * <p>An attribute counts as Azure's 64 KiB property limit counts it, on the value alone (both the
 * service and Azurite check a String's UTF-16 characters and a Binary's bytes, not the name or the
 * JSON form): a property another tool stored at the limit is written back as it is. Its share of
 * the item ({@link #itemShareBytes}), by which the core chooses what overflows, is the larger
 * count.
 */
public final class AzureSizeModel implements SizeModel {
  /** Room for PartitionKey, RowKey, the nonce property and the JSON envelope. */
  static final long ENTITY_OVERHEAD = 4 + 2L * 2 * AzureKeys.MAX_KEY_CHARS + 256;

  @Override
  public long attributeBytes(String name, AttributeValue value) {
    return valueBytes(EntityCodec.property(name, value).value());
  }

  /**
   * What the attribute adds to {@link #itemBytes} at most: the larger of its Azure and JSON counts
   * (a binary's base64 takes a third more than its bytes), more than {@link #attributeBytes}.
   */
  @Override
  public long itemShareBytes(String name, AttributeValue value) {
    EntityCodec.Property p = EntityCodec.property(name, value);
    return Math.max(azureBytes(p), jsonBytes(p));
  }

  /** The bytes of a property value as Azure's per-property limit counts them. */
  static long valueBytes(Object v) {
    if (v instanceof String s) {
      return 2L * s.length();
    }
    if (v instanceof byte[] b) {
      return b.length;
    }
    if (v instanceof java.util.UUID) {
      return 16;
    }
    if (v instanceof Integer) {
      return 4;
    }
    if (v instanceof Boolean) {
      return 1;
    }
    return 8;
  }

  @Override
  public long itemBytes(Item item) {
    long azure = ENTITY_OVERHEAD;
    long json = ENTITY_OVERHEAD;
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      EntityCodec.Property p = EntityCodec.property(e.getKey(), e.getValue());
      azure += azureBytes(p);
      json += jsonBytes(p);
    }
    return Math.max(azure, json);
  }

  /** Azure's count for one property. */
  static long azureBytes(EntityCodec.Property p) {
    long name = 8 + 2L * p.name().length();
    Object v = p.value();
    if (v instanceof String s) {
      return name + 4 + 2L * s.length();
    }
    if (v instanceof byte[] b) {
      return name + 4 + b.length;
    }
    if (v instanceof Long || v instanceof Double || v instanceof java.time.OffsetDateTime) {
      return name + 8;
    }
    if (v instanceof java.util.UUID) {
      return name + 16;
    }
    if (v instanceof Integer) {
      return name + 4;
    }
    return name + 1;
  }

  /** An upper bound of the property's share of the JSON body, annotation included. */
  static long jsonBytes(EntityCodec.Property p) {
    long name = 2L * p.name().length() + 48;
    Object v = p.value();
    if (v instanceof String s) {
      return name + jsonStringBytes(s);
    }
    if (v instanceof byte[] b) {
      return name + 2 + 4L * ((b.length + 2) / 3);
    }
    if (v instanceof Long || v instanceof Double) {
      return name + 26;
    }
    if (v instanceof java.time.OffsetDateTime || v instanceof java.util.UUID) {
      return name + 40;
    }
    if (v instanceof Integer) {
      return name + 11;
    }
    return name + 5;
  }

  private static long jsonStringBytes(String s) {
    long n = 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        n += 6;
      } else if (c == '"' || c == '\\') {
        n += 2;
      } else if (c < 0x80) {
        n += 1;
      } else if (c < 0x800 || Character.isSurrogate(c)) {
        n += 2;
      } else {
        n += 3;
      }
    }
    return n;
  }
}
