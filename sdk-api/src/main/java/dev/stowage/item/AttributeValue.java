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
 *
 * <p>Every string a value holds, map keys and set members included, must be well-formed Unicode (no
 * unpaired surrogates), since every backend stores UTF-8. Sets refuse duplicate members rather than
 * merging them. Lists and maps may nest at most {@link #MAX_NESTING} levels deep (see there for how
 * levels are counted): deeper values can be built, but every write refuses them.
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

  /**
   * The deepest nesting of lists and maps Stowage writes, on every backend: {@value}.
   *
   * <p>An attribute whose value is a list or a map is at level 1; each list or map inside it adds a
   * level, and a list directly inside a list adds two (Datastore stores it as an array wrapped in
   * an entity). Scalars and sets add none. So {@code [[1]]} has 3 levels and {@code {"a": [1]}} has
   * 2. Datastore stores at most 20 levels of arrays and entities, and needs up to 3 more below the
   * deepest list or map for a set of decimals, which is why the limit is 16; DynamoDB (32 levels)
   * and the compressed, encrypted and overflowed forms (64) have room to spare. Writes of deeper
   * values are refused with {@code InvalidRequestException} naming the attribute, before anything
   * is written.
   */
  int MAX_NESTING = 16;

  /** The type of this value. */
  AttributeType type();

  /** A string value. */
  static StringValue of(String value) {
    return new StringValue(value);
  }

  /** An exact number. */
  static NumberValue of(long value) {
    if (value >= NumberValue.SMALL_MIN && value <= NumberValue.SMALL_MAX) {
      return NumberValue.SMALL[(int) (value - NumberValue.SMALL_MIN)];
    }
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

  /** A map (copied). @throws IllegalArgumentException on a key with an unpaired surrogate */
  static MapValue map(Map<String, ? extends AttributeValue> values) {
    return new MapValue(Map.copyOf(values));
  }

  /**
   * A non-empty string set of distinct members.
   *
   * @throws IllegalArgumentException if {@code values} is empty or holds a member twice
   */
  static StringSetValue stringSet(Collection<String> values) {
    return new StringSetValue(values);
  }

  /**
   * A non-empty string set of distinct members.
   *
   * @throws IllegalArgumentException if {@code values} is empty or holds a member twice
   */
  static StringSetValue stringSet(String... values) {
    return new StringSetValue(List.of(values));
  }

  /**
   * A non-empty number set of distinct members.
   *
   * @throws IllegalArgumentException if {@code values} is empty or holds a member twice (compared
   *     numerically: {@code 1} and {@code 1.0} are duplicates)
   */
  static NumberSetValue numberSet(Collection<BigDecimal> values) {
    return new NumberSetValue(values);
  }

  /**
   * A non-empty binary set of distinct members.
   *
   * @throws IllegalArgumentException if {@code values} is empty or holds a member twice
   */
  static BinarySetValue binarySet(Collection<Bytes> values) {
    return new BinarySetValue(values);
  }

  /** A string. Any Unicode text, including the empty string; unpaired surrogates are rejected. */
  record StringValue(String value) implements KeyValue {
    public StringValue {
      Objects.requireNonNull(value, "string value");
      requireUtf8(value, "string value");
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

    /*
     * The values of the small integers, shared as Long.valueOf shares its boxes: counts, ages,
     * sizes, versions and flags stored as numbers mostly are, and an immutable value of one costs
     * nothing to build then.
     */
    static final long SMALL_MIN = -128;
    static final long SMALL_MAX = 1023;
    static final NumberValue[] SMALL = new NumberValue[(int) (SMALL_MAX - SMALL_MIN + 1)];

    static {
      for (int i = 0; i < SMALL.length; i++) {
        SMALL[i] = new NumberValue(BigDecimal.valueOf(SMALL_MIN + i));
      }
    }

    public NumberValue {
      Objects.requireNonNull(value, "number value");
      value = normalize(value);
    }

    private static BigDecimal normalize(BigDecimal v) {
      // The common case, a whole number of up to 18 digits, is normalised on its long value:
      // longValue() of such a value reads its compact form without arithmetic, and stripping
      // its trailing zeros is a few divisions of a long.
      if (v.scale() == 0 && v.precision() <= 18) {
        long l = v.longValue();
        if (l % 10 != 0) {
          return v;
        }
        if (l == 0) {
          return BigDecimal.ZERO;
        }
        int zeros = 0;
        do {
          l /= 10;
          zeros++;
        } while (l % 10 == 0);
        return BigDecimal.valueOf(l, -zeros);
      }
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
      return "NumberValue[value=" + value.toPlainString() + "]";
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

  /**
   * A nested map from names to values, possibly empty. Iterates in key order. Keys are any Unicode
   * text, the empty string included; a key with an unpaired surrogate is rejected, as in a string.
   */
  record MapValue(Map<String, AttributeValue> values) implements AttributeValue {
    public MapValue {
      TreeMap<String, AttributeValue> sorted = new TreeMap<>(Utf8Order.COMPARATOR);
      for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
        String key = Objects.requireNonNull(e.getKey(), "map key");
        requireUtf8(key, "map key");
        sorted.put(key, Objects.requireNonNull(e.getValue(), "map value"));
      }
      values = Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
    }

    @Override
    public AttributeType type() {
      return AttributeType.MAP;
    }
  }

  /**
   * A non-empty set of distinct strings, iterated in UTF-8 order. Building one from members that
   * repeat fails rather than merging them.
   */
  record StringSetValue(SortedSet<String> values) implements AttributeValue {
    public StringSetValue(Collection<String> values) {
      this(sortedNonEmpty(values, Utf8Order.COMPARATOR, "string set"));
    }

    public StringSetValue {
      values =
          Collections.unmodifiableSortedSet(
              sortedNonEmpty(values, Utf8Order.COMPARATOR, "string set"));
      values.forEach(v -> requireUtf8(v, "string set member"));
    }

    @Override
    public AttributeType type() {
      return AttributeType.STRING_SET;
    }
  }

  /**
   * A non-empty set of distinct numbers (compared numerically), iterated in ascending order.
   * Building one from members that repeat ({@code 1} and {@code 1.0} included) fails rather than
   * merging them.
   */
  record NumberSetValue(SortedSet<BigDecimal> values) implements AttributeValue {
    public NumberSetValue(Collection<BigDecimal> values) {
      this(sortedNonEmpty(values, BigDecimal::compareTo, "number set"));
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

  /**
   * A non-empty set of distinct binary values, iterated in unsigned order. Building one from
   * members that repeat fails rather than merging them.
   */
  record BinarySetValue(SortedSet<Bytes> values) implements AttributeValue {
    public BinarySetValue(Collection<Bytes> values) {
      this(sortedNonEmpty(values, Bytes::compareTo, "binary set"));
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
      if (!set.add(Objects.requireNonNull(v, what + " element"))) {
        throw new IllegalArgumentException(
            what
                + " holds the member "
                + describe(v)
                + " more than once; a set's members must be distinct (remove the duplicates)");
      }
    }
    if (set.isEmpty()) {
      throw new IllegalArgumentException(
          what + " must not be empty (no backend stores empty sets; remove the attribute instead)");
    }
    return set;
  }

  private static String describe(Object member) {
    if (member instanceof String str) {
      return "'" + (str.length() > 40 ? str.substring(0, 40) + "…" : str) + "'";
    }
    if (member instanceof Bytes b) {
      return "of " + b.size() + " bytes";
    }
    return String.valueOf(member);
  }

  /**
   * Checks that {@code s} is well-formed UTF-16 (every surrogate paired), so that it has a UTF-8
   * form.
   *
   * @throws IllegalArgumentException naming what {@code s} is and where the unpaired surrogate is
   */
  private static void requireUtf8(String s, String what) {
    // The common case, text without surrogates, in a counted loop that never leaves early, which
    // the JIT unrolls: about three times faster on short strings than a loop that stops at the
    // first surrogate (every string an item reads is checked here). The pairing is checked only
    // where there is a surrogate.
    int n = s.length();
    boolean surrogates = false;
    for (int i = 0; i < n; i++) {
      surrogates |= (s.charAt(i) & 0xF800) == 0xD800;
    }
    if (!surrogates) {
      return;
    }
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            what + " has an unpaired surrogate at index " + i + "; it has no UTF-8 form");
      }
    }
  }
}
