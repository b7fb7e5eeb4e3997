package dev.stowage.overflow;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.SizeModel;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/** A DynamoDB-like additive size model and limits built from it, for overflow tests. */
public final class TestLimits {
  private TestLimits() {}

  /** Name bytes plus value bytes; containers add 3 bytes plus their elements (maps their keys). */
  public static final SizeModel SIZE_MODEL =
      new SizeModel() {
        @Override
        public long attributeBytes(String name, AttributeValue value) {
          return utf8(name) + valueBytes(value);
        }

        @Override
        public long itemBytes(Item item) {
          long n = 0;
          for (var e : item.attributes().entrySet()) {
            n += attributeBytes(e.getKey(), e.getValue());
          }
          return n;
        }
      };

  /** Limits with the given item rules and generous batch and key limits. */
  public static DriverLimits limits(
      long maxItemBytes, long maxAttributeBytes, int maxAttributes, long maxIndexedValueBytes) {
    return new DriverLimits(
        maxItemBytes,
        maxAttributeBytes,
        maxAttributes,
        maxIndexedValueBytes,
        2048,
        1024,
        100,
        25,
        100,
        SIZE_MODEL);
  }

  /** DynamoDB's rules: 400 KB items, any number of attributes, 1 KB sort keys. */
  public static DriverLimits dynamoLike() {
    return limits(400 * 1024, 400 * 1024, 100_000, 2048);
  }

  /** Azure Tables' rules: 1 MiB entity, 64 KiB property, 255 properties. */
  public static DriverLimits azureLike() {
    return limits(1024 * 1024, 64 * 1024, 255, 64 * 1024);
  }

  static long valueBytes(AttributeValue v) {
    if (v instanceof AttributeValue.StringValue s) {
      return utf8(s.value());
    }
    if (v instanceof AttributeValue.NumberValue n) {
      return n.value().precision() / 2 + 2;
    }
    if (v instanceof AttributeValue.BinaryValue b) {
      return b.value().size();
    }
    if (v instanceof AttributeValue.ListValue l) {
      long n = 3;
      for (AttributeValue x : l.values()) {
        n += 1 + valueBytes(x);
      }
      return n;
    }
    if (v instanceof AttributeValue.MapValue m) {
      long n = 3;
      for (var e : m.values().entrySet()) {
        n += 1 + utf8(e.getKey()) + valueBytes(e.getValue());
      }
      return n;
    }
    if (v instanceof AttributeValue.StringSetValue s) {
      return s.values().stream().mapToLong(TestLimits::utf8).sum();
    }
    if (v instanceof AttributeValue.NumberSetValue s) {
      return s.values().stream().mapToLong(x -> x.precision() / 2 + 2).sum();
    }
    if (v instanceof AttributeValue.BinarySetValue s) {
      return s.values().stream().mapToLong(Bytes::size).sum();
    }
    return 1;
  }

  static long utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** A number value, for brevity. */
  public static AttributeValue num(long n) {
    return AttributeValue.of(BigDecimal.valueOf(n));
  }
}
