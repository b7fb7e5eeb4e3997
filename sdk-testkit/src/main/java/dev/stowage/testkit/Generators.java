package dev.stowage.testkit;

import dev.stowage.KeySchema;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.KeyValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Tuple;
import net.jqwik.api.sessions.JqwikSession;

/**
 * jqwik {@link Arbitrary arbitraries} for every Stowage attribute value type and for whole items,
 * covering the portable edges: exact decimals of up to 38 digits with exponents from -130 to 125,
 * empty strings, lists and maps, binary with high bytes and with the envelope magic, Unicode text
 * including control characters, supplementary characters (surrogate pairs) and the prefixes drivers
 * and other tools give special meaning ({@link #TRICKY_PREFIXES}), nested lists and maps.
 *
 * <p>Use them in jqwik properties ({@code @ForAll("…")} with a provider method returning one of
 * these), or outside jqwik with {@link #samples}, which draws a deterministic list from a fixed
 * seed. All methods are thread-safe and return fresh arbitraries.
 */
public final class Generators {
  /** Default nesting depth of lists and maps in {@link #values()}. */
  public static final int DEFAULT_DEPTH = 3;

  private Generators() {}

  /** Unicode code points (no unpaired surrogates), biased to ASCII, with controls and astral. */
  public static Arbitrary<Integer> codePoints() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.integers().between(0x20, 0x7e)),
        Tuple.of(1, Arbitraries.integers().between(0x00, 0x1f)),
        Tuple.of(3, Arbitraries.integers().between(0x7f, 0xd7ff)),
        Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
  }

  /** Code points without C0 and C1 control characters, for attribute names. */
  private static Arbitrary<Integer> printableCodePoints() {
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.integers().between(0x20, 0x7e)),
        Tuple.of(3, Arbitraries.integers().between(0xa0, 0xd7ff)),
        Tuple.of(1, Arbitraries.integers().between(0xe000, 0xffff)),
        Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10ffff)));
  }

  /** Any string of 0 to 20 code points, the empty string included. */
  public static Arbitrary<String> strings() {
    return strings(0, 20);
  }

  /**
   * Prefixes real data has and Stowage's own formats must never misread: the private-use character
   * a driver could take for an escape, the escape characters and reserved-looking prefixes of the
   * drivers and of other tools ({@code __typename}), a zero character.
   */
  public static final List<String> TRICKY_PREFIXES =
      List.of("\uE000", "\uE000\uE001", "~", "_", "__", "_0_", "__typename", "\u0000");

  /**
   * Strings of {@code min} to {@code max} code points; one in five starts with one of {@link
   * #TRICKY_PREFIXES} (and may then be up to that prefix longer).
   */
  public static Arbitrary<String> strings(int min, int max) {
    Arbitrary<String> plain =
        codePoints()
            .list()
            .ofMinSize(min)
            .ofMaxSize(max)
            .map(
                cps -> {
                  StringBuilder sb = new StringBuilder();
                  cps.forEach(sb::appendCodePoint);
                  return sb.toString();
                });
    if (max == 0) {
      return plain;
    }
    Arbitrary<String> tricky =
        Combinators.combine(Arbitraries.of(TRICKY_PREFIXES), plain).as(String::concat);
    return Arbitraries.frequencyOf(Tuple.of(4, plain), Tuple.of(1, tricky));
  }

  /**
   * Exact decimals across the portable range: 1 to 38 significant digits, the leading digit's
   * exponent from -130 to 125, either sign, zero, and edge values such as 0.3 and the extremes.
   */
  public static Arbitrary<BigDecimal> numbers() {
    Arbitrary<BigDecimal> random =
        Combinators.combine(
                Arbitraries.strings().withCharRange('0', '9').ofMinLength(1).ofMaxLength(38),
                Arbitraries.integers().between(-130, 125),
                Arbitraries.of(1, -1))
            .as(
                (digits, exponent, sign) -> {
                  BigInteger unscaled = new BigInteger(digits);
                  if (unscaled.signum() == 0) {
                    return BigDecimal.ZERO;
                  }
                  int precision = unscaled.toString().length();
                  // scale chosen so that the leading digit sits at 10^exponent
                  BigDecimal v = new BigDecimal(unscaled, precision - 1 - exponent);
                  return sign < 0 ? v.negate() : v;
                });
    Arbitrary<BigDecimal> small =
        Arbitraries.longs().between(-1_000_000, 1_000_000).map(BigDecimal::valueOf);
    return Arbitraries.frequencyOf(
            Tuple.of(6, random), Tuple.of(3, small), Tuple.of(1, Arbitraries.of(edgeNumbers())))
        .map(n -> new NumberValue(n).value());
  }

  /** The portable number edges: zero, 0.1 + 0.2, the largest and smallest magnitudes. */
  public static List<BigDecimal> edgeNumbers() {
    BigDecimal max = new BigDecimal(new BigInteger("9".repeat(38)), 38 - 1 - 125);
    return List.of(
        BigDecimal.ZERO,
        new BigDecimal("0.1").add(new BigDecimal("0.2")),
        new BigDecimal("1E-130"),
        new BigDecimal("-1E-130"),
        max,
        max.negate(),
        new BigDecimal("12345678901234567890123456789012345678"),
        new BigDecimal("-0.00000000000000000000000000000000000001"),
        BigDecimal.valueOf(Long.MAX_VALUE),
        BigDecimal.valueOf(Long.MIN_VALUE));
  }

  /** Binary values of 0 to 64 bytes, every byte value possible. */
  public static Arbitrary<Bytes> binaries() {
    return binaries(0, 64);
  }

  /**
   * Binary values of {@code min} to {@code max} bytes; where {@code max} allows, one in five starts
   * with Stowage's envelope magic {@code F5 53}, as one random value in 65,536 does.
   */
  public static Arbitrary<Bytes> binaries(int min, int max) {
    Arbitrary<Bytes> plain =
        Arbitraries.bytes().array(byte[].class).ofMinSize(min).ofMaxSize(max).map(Bytes::wrap);
    if (max < 2) {
      return plain;
    }
    Arbitrary<Bytes> magic =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(Math.max(0, min - 2))
            .ofMaxSize(max - 2)
            .map(
                tail -> {
                  byte[] b = new byte[tail.length + 2];
                  b[0] = (byte) 0xF5;
                  b[1] = 0x53;
                  System.arraycopy(tail, 0, b, 2, tail.length);
                  return Bytes.wrap(b);
                });
    return Arbitraries.frequencyOf(Tuple.of(4, plain), Tuple.of(1, magic));
  }

  /**
   * Values usable as a key of {@code type}: non-empty strings, numbers, non-empty binaries (no
   * backend accepts an empty string or binary key).
   *
   * @throws IllegalArgumentException if {@code type} is not a key type
   */
  public static Arbitrary<KeyValue> keyValues(AttributeType type) {
    return switch (type) {
      case STRING -> strings(1, 20).map(AttributeValue::of);
      case NUMBER -> numbers().map(AttributeValue::of);
      case BINARY -> binaries(1, 32).map(AttributeValue::of);
      default -> throw new IllegalArgumentException(type + " is not a key type");
    };
  }

  /** Scalar values: string, number, binary, boolean, null. */
  public static Arbitrary<AttributeValue> scalars() {
    return Arbitraries.oneOf(
        strings().map(AttributeValue::of),
        numbers().map(AttributeValue::of),
        binaries().map(AttributeValue::of),
        Arbitraries.of(true, false).map(AttributeValue::of),
        Arbitraries.just(AttributeValue.nullValue()));
  }

  /** Non-empty sets of each set type (sets refuse duplicate members, so none are generated). */
  public static Arbitrary<AttributeValue> sets() {
    return Arbitraries.oneOf(
        values(AttributeType.STRING_SET),
        values(AttributeType.NUMBER_SET),
        values(AttributeType.BINARY_SET));
  }

  /** Values of every type, lists and maps nested up to {@link #DEFAULT_DEPTH}. */
  public static Arbitrary<AttributeValue> values() {
    return values(DEFAULT_DEPTH);
  }

  /** Values of every type, lists and maps nested up to {@code depth} levels. */
  public static Arbitrary<AttributeValue> values(int depth) {
    Arbitrary<AttributeValue> flat =
        Arbitraries.frequencyOf(Tuple.of(5, scalars()), Tuple.of(2, sets()));
    if (depth <= 0) {
      return flat;
    }
    Arbitrary<AttributeValue> inner = values(depth - 1);
    Arbitrary<AttributeValue> list = inner.list().ofMaxSize(4).map(AttributeValue::list);
    Arbitrary<AttributeValue> map =
        Arbitraries.maps(strings(0, 8), inner).ofMaxSize(4).map(AttributeValue::map);
    return Arbitraries.frequencyOf(Tuple.of(6, flat), Tuple.of(1, list), Tuple.of(1, map));
  }

  /** Values of exactly one type (lists and maps nested up to {@link #DEFAULT_DEPTH}). */
  public static Arbitrary<AttributeValue> values(AttributeType type) {
    return switch (type) {
      case STRING -> strings().map(AttributeValue::of);
      case NUMBER -> numbers().map(AttributeValue::of);
      case BINARY -> binaries().map(AttributeValue::of);
      case BOOLEAN -> Arbitraries.of(true, false).map(AttributeValue::of);
      case NULL -> Arbitraries.just(AttributeValue.nullValue());
      case LIST -> values(DEFAULT_DEPTH - 1).list().ofMaxSize(5).map(AttributeValue::list);
      case MAP ->
          Arbitraries.maps(strings(0, 8), values(DEFAULT_DEPTH - 1))
              .ofMaxSize(5)
              .map(AttributeValue::map);
      case STRING_SET ->
          strings()
              .list()
              .uniqueElements()
              .ofMinSize(1)
              .ofMaxSize(6)
              .map(AttributeValue::stringSet);
      // numbers() are normalised, so equal numbers are equal objects
      case NUMBER_SET ->
          numbers()
              .list()
              .uniqueElements()
              .ofMinSize(1)
              .ofMaxSize(6)
              .map(AttributeValue::numberSet);
      case BINARY_SET ->
          binaries()
              .list()
              .uniqueElements()
              .ofMinSize(1)
              .ofMaxSize(6)
              .map(AttributeValue::binarySet);
    };
  }

  /**
   * Valid user attribute names: 1 to 20 code points, no control characters, not starting with the
   * reserved prefix {@code stowage:}.
   */
  public static Arbitrary<String> attributeNames() {
    return printableCodePoints()
        .list()
        .ofMinSize(1)
        .ofMaxSize(20)
        .map(
            cps -> {
              StringBuilder sb = new StringBuilder();
              cps.forEach(sb::appendCodePoint);
              return sb.toString();
            })
        .filter(n -> !dev.stowage.item.AttributeNames.isReserved(n));
  }

  /** Items of 0 to 12 attributes of any type, without key attributes. */
  public static Arbitrary<Item> items() {
    return Arbitraries.maps(attributeNames(), values()).ofMaxSize(12).map(Item::of);
  }

  /** Items carrying key attributes of {@code schema} (of the right types) plus other attributes. */
  public static Arbitrary<Item> items(KeySchema schema) {
    Arbitrary<KeyValue> partition = keyValues(schema.partitionType());
    Arbitrary<Optional<KeyValue>> sort =
        schema.hasSort()
            ? keyValues(schema.sortType().orElseThrow()).map(Optional::of)
            : Arbitraries.just(Optional.empty());
    return Combinators.combine(items(), partition, sort)
        .as(
            (item, p, s) -> {
              Item.Builder b = item.toBuilder().put(schema.partitionName(), p);
              s.ifPresent(v -> b.put(schema.sortName().orElseThrow(), v));
              return b.build();
            });
  }

  /**
   * Draws {@code count} values from {@code arbitrary}, deterministically for a given {@code seed},
   * edge cases included. Works inside and outside a jqwik property (outside, it opens and closes a
   * jqwik session itself).
   */
  public static <T> List<T> samples(Arbitrary<T> arbitrary, int count, long seed) {
    if (JqwikSession.isActive()) {
      return draw(arbitrary, count, seed);
    }
    JqwikSession.start();
    try {
      return draw(arbitrary, count, seed);
    } finally {
      JqwikSession.finish();
    }
  }

  private static <T> List<T> draw(Arbitrary<T> arbitrary, int count, long seed) {
    RandomGenerator<T> generator = arbitrary.generator(1000);
    Random random = new Random(seed);
    List<T> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(generator.next(random).value());
    }
    return out;
  }
}
