package dev.stowage.item;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An attribute value: the closed set of types every Stowage backend stores exactly.
 *
 * <p>All implementations are immutable, thread-safe records validated in their constructors; nulls
 * are rejected (use {@link NullValue} for an explicit null). Equality is by value: numbers compare
 * numerically ({@code 1.0} equals {@code 1}), sets and maps ignore insertion order.
 */
public sealed interface AttributeValue
    permits KeyValue,
        AttributeValue.BooleanValue,
        AttributeValue.NullValue,
        AttributeValue.ListValue,
        AttributeValue.MapValue,
        AttributeValue.StringSetValue,
        AttributeValue.NumberSetValue,
        AttributeValue.BinarySetValue {

  /** The type of this value. */
  AttributeType type();

  /** A string value. */
  static StringValue of(String value) {
    return new StringValue(value);
  }

  /** An exact number. */
  static NumberValue of(long value) {
    return new NumberValue(BigDecimal.valueOf(value));
  }

  /** An exact number; see {@link NumberValue} for the portable range. */
  static NumberValue of(BigDecimal value) {
    return new NumberValue(value);
  }

  /** A binary value (copied). */
  static BinaryValue of(byte[] value) {
    return new BinaryValue(Bytes.of(value));
  }

  /** A binary value. */
  static BinaryValue of(Bytes value) {
    return new BinaryValue(value);
  }

  /** A boolean value. */
  static BooleanValue of(boolean value) {
    return value ? BooleanValue.TRUE : BooleanValue.FALSE;
  }

  /** The null value. */
  static NullValue nullValue() {
    return NullValue.INSTANCE;
  }

  /** A list (copied). */
  static ListValue list(List<? extends AttributeValue> values) {
    return new ListValue(List.copyOf(values));
  }

  /** A list (copied). */
  static ListValue list(AttributeValue... values) {
    return new ListValue(List.of(values));
  }

  /** A map (copied). */
  static MapValue map(Map<String, ? extends AttributeValue> values) {
    return new MapValue(Map.copyOf(values));
  }

  /** A non-empty string set. */
  static StringSetValue stringSet(Collection<String> values) {
    return new StringSetValue(values);
  }

  /** A non-empty string set. */
  static StringSetValue stringSet(String... values) {
    return new StringSetValue(List.of(values));
  }

  /** A non-empty number set. */
  static NumberSetValue numberSet(Collection<BigDecimal> values) {
    return new NumberSetValue(values);
  }

  /** A non-empty binary set. */
  static BinarySetValue binarySet(Collection<Bytes> values) {
    return new BinarySetValue(values);
  }

  /** A string. Any Unicode text, including the empty string; unpaired surrogates are rejected. */
  record StringValue(String value) implements KeyValue {
    public StringValue {
      Objects.requireNonNull(value, "string value");
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (Character.isHighSurrogate(c)
            && i + 1 < value.length()
            && Character.isLowSurrogate(value.charAt(i + 1))) {
          i++;
        } else if (Character.isSurrogate(c)) {
          throw new IllegalArgumentException(
              "string value has an unpaired surrogate at index " + i + "; it has no UTF-8 form");
        }
      }
    }

    @Override
    public AttributeType type() {
      return AttributeType.STRING;
    }
  }

  /**
   * An exact decimal number.
   *
   * <p>The portable range is that of the strictest backend: at most 38 significant digits and a
   * magnitude between 1E-130 and 9.99…E+125 (or zero). Values are normalised (trailing zeros
   * stripped) so {@code 1.50} and {@code 1.5} are the same value on every backend.
   */
  record NumberValue(BigDecimal value) implements KeyValue {
    /** Most significant digits a number may have. */
    public static final int MAX_PRECISION = 38;

    public NumberValue {
      Objects.requireNonNull(value, "number value");
      value = normalize(value);
    }

    private static BigDecimal normalize(BigDecimal v) {
      if (v.signum() == 0) {
        return BigDecimal.ZERO;
      }
      BigDecimal n = v.stripTrailingZeros();
      if (n.precision() > MAX_PRECISION) {
        throw new IllegalArgumentException(
            "number "
                + v
                + " has "
                + n.precision()
                + " significant digits; at most 38 are portable");
      }
      // Magnitude: the exponent of the leading digit in scientific notation.
      long exponent = (long) n.precision() - n.scale() - 1;
      if (exponent < -130 || exponent > 125) {
        throw new IllegalArgumentException(
            "number " + v + " is outside the portable range 1E-130 to 9.99E+125");
      }
      return n;
    }

    /** The value as a long. @throws ArithmeticException if it is not an integer in range */
    public long longValue() {
      return value.longValueExact();
    }

    /** The value as a BigInteger. @throws ArithmeticException if it has a fraction */
    public BigInteger bigIntegerValue() {
      return value.toBigIntegerExact();
    }

    @Override
    public AttributeType type() {
      return AttributeType.NUMBER;
    }

    @Override
    public String toString() {
      return "NumberValue[" + value.toPlainString() + "]";
    }
  }

  /** Binary data, compared as unsigned bytes. */
  record BinaryValue(Bytes value) implements KeyValue {
    public BinaryValue {
      Objects.requireNonNull(value, "binary value");
    }

    @Override
    public AttributeType type() {
      return AttributeType.BINARY;
    }
  }

  /** A boolean. */
  record BooleanValue(boolean value) implements AttributeValue {
    static final BooleanValue TRUE = new BooleanValue(true);
    static final BooleanValue FALSE = new BooleanValue(false);

    @Override
    public AttributeType type() {
      return AttributeType.BOOLEAN;
    }
  }

  /** An explicit null; distinct from an absent attribute. */
  record NullValue() implements AttributeValue {
    static final NullValue INSTANCE = new NullValue();

    @Override
    public AttributeType type() {
      return AttributeType.NULL;
    }
  }

  /** An ordered list of values of any types, possibly empty. */
  record ListValue(List<AttributeValue> values) implements AttributeValue {
    public ListValue {
      values = List.copyOf(values);
    }

    @Override
    public AttributeType type() {
      return AttributeType.LIST;
    }
  }

  /** A nested map from names to values, possibly empty. Iterates in key order. */
  record MapValue(Map<String, AttributeValue> values) implements AttributeValue {
    public MapValue {
      TreeMap<String, AttributeValue> sorted = new TreeMap<>(Utf8Order.COMPARATOR);
      for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
        sorted.put(
            Objects.requireNonNull(e.getKey(), "map key"),
            Objects.requireNonNull(e.getValue(), "map value"));
      }
      values = Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
    }

    @Override
    public AttributeType type() {
      return AttributeType.MAP;
    }
  }

  /** A non-empty set of distinct strings, iterated in UTF-8 order. */
  record StringSetValue(SortedSet<String> values) implements AttributeValue {
    public StringSetValue(Collection<String> values) {
      this(sortedNonEmpty(values, Utf8Order.COMPARATOR, "string set"));
    }

    public StringSetValue {
      values =
          Collections.unmodifiableSortedSet(
              sortedNonEmpty(values, Utf8Order.COMPARATOR, "string set"));
      values.forEach(StringValue::new); // rejects unpaired surrogates
    }

    @Override
    public AttributeType type() {
      return AttributeType.STRING_SET;
    }
  }

  /** A non-empty set of distinct numbers (compared numerically), iterated in ascending order. */
  record NumberSetValue(SortedSet<BigDecimal> values) implements AttributeValue {
    public NumberSetValue(Collection<BigDecimal> values) {
      this(new TreeSet<>(values));
    }

    public NumberSetValue {
      List<BigDecimal> normalized = new ArrayList<>();
      for (BigDecimal v : values) {
        normalized.add(new NumberValue(v).value());
      }
      values =
          Collections.unmodifiableSortedSet(
              sortedNonEmpty(normalized, BigDecimal::compareTo, "number set"));
    }

    @Override
    public AttributeType type() {
      return AttributeType.NUMBER_SET;
    }
  }

  /** A non-empty set of distinct binary values, iterated in unsigned order. */
  record BinarySetValue(SortedSet<Bytes> values) implements AttributeValue {
    public BinarySetValue(Collection<Bytes> values) {
      this(new TreeSet<>(values));
    }

    public BinarySetValue {
      values =
          Collections.unmodifiableSortedSet(sortedNonEmpty(values, Bytes::compareTo, "binary set"));
    }

    @Override
    public AttributeType type() {
      return AttributeType.BINARY_SET;
    }
  }

  private static <T> SortedSet<T> sortedNonEmpty(
      Collection<T> values, java.util.Comparator<? super T> order, String what) {
    TreeSet<T> set = new TreeSet<>(order);
    for (T v : values) {
      set.add(Objects.requireNonNull(v, what + " element"));
    }
    if (set.isEmpty()) {
      throw new IllegalArgumentException(
          what + " must not be empty (no backend stores empty sets; remove the attribute instead)");
    }
    return set;
  }
}
