package dev.stowage.codec;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators for every attribute value type, nested, including large compressible ones. */
final class Values {
  private Values() {}

  static Arbitrary<String> strings() {
    return Arbitraries.oneOf(
        Arbitraries.strings().ofMaxLength(40),
        // Any BMP character except surrogates, plus paired supplementary characters.
        Arbitraries.strings()
            .withCharRange('\u0000', '\uD7FF')
            .withCharRange('\uE000', '\uFFFF')
            .ofMaxLength(20),
        Arbitraries.integers()
            .between(0x10000, 0x10FFFF)
            .list()
            .ofMaxSize(5)
            .map(cps -> new String(cps.stream().mapToInt(i -> i).toArray(), 0, cps.size())),
        Arbitraries.strings().withChars("{}\":,abc ").ofMinLength(50).ofMaxLength(400),
        Arbitraries.just(""));
  }

  static Arbitrary<BigDecimal> numbers() {
    return Combinators.combine(
            Arbitraries.bigIntegers()
                .between(BigInteger.TEN.pow(20).negate(), BigInteger.TEN.pow(20)),
            Arbitraries.integers().between(-60, 60))
        .as((unscaled, scale) -> new BigDecimal(unscaled, scale));
  }

  static Arbitrary<Bytes> bytes() {
    return Arbitraries.oneOf(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(64).map(Bytes::of),
        // Zeros compress well, exercising the compressed path for binary values.
        Arbitraries.integers().between(64, 2000).map(n -> Bytes.of(new byte[n])),
        // Binary values that look like envelopes must be escaped on write.
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMaxSize(30)
            .map(
                b -> {
                  byte[] x = new byte[b.length + 2];
                  x[0] = (byte) 0xF5;
                  x[1] = 0x53;
                  System.arraycopy(b, 0, x, 2, b.length);
                  return Bytes.of(x);
                }));
  }

  static Arbitrary<AttributeValue> scalars() {
    return Arbitraries.oneOf(
        strings().map(AttributeValue::of),
        numbers().map(AttributeValue::of),
        bytes().map(AttributeValue::of),
        Arbitraries.of(true, false).map(AttributeValue::of),
        Arbitraries.just(AttributeValue.nullValue()),
        strings().set().ofMinSize(1).ofMaxSize(5).map(AttributeValue::stringSet),
        numbers()
            .map(BigDecimal::stripTrailingZeros)
            .set()
            .ofMinSize(1)
            .ofMaxSize(5)
            .map(AttributeValue::numberSet),
        bytes().set().ofMinSize(1).ofMaxSize(4).map(AttributeValue::binarySet));
  }

  /**
   * Any value: scalars, sets, and lists and maps nested up to three levels. Edge cases are off:
   * jqwik would otherwise enumerate combinations of the nested generators' edge cases, which costs
   * far more than the properties themselves.
   */
  static Arbitrary<AttributeValue> values() {
    return Arbitraries.oneOf(scalars(), nested(2)).withoutEdgeCases();
  }

  private static Arbitrary<AttributeValue> nested(int depth) {
    Arbitrary<AttributeValue> inner =
        depth == 0 ? scalars() : Arbitraries.oneOf(scalars(), nested(depth - 1));
    return Arbitraries.oneOf(
        inner.list().ofMaxSize(5).map(AttributeValue::list),
        Arbitraries.maps(Arbitraries.strings().ofMaxLength(8), inner)
            .ofMaxSize(5)
            .map(AttributeValue::map));
  }

  /** A realistic JSON-like document of about {@code size} characters. */
  static String json(int size, long seed) {
    java.util.Random r = new java.util.Random(seed);
    StringBuilder sb = new StringBuilder("[");
    List<String> words = List.of("order", "customer", "status", "shipped", "pending", "total");
    while (sb.length() < size) {
      sb.append("{\"id\":")
          .append(r.nextInt(1_000_000))
          .append(",\"")
          .append(words.get(r.nextInt(words.size())))
          .append("\":\"")
          .append(words.get(r.nextInt(words.size())))
          .append("\",\"amount\":")
          .append(r.nextInt(10_000) / 100.0)
          .append("},");
    }
    sb.setLength(size - 1);
    return sb.append(']').toString();
  }
}
