package dev.stowage.typed.internal;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * The built-in codecs of scalar JDK types, with the portable stored forms documented in
 * docs/typed-items.md. Forms of key-capable types sort in the Java type's own order wherever the
 * document says so, so they work as sort keys.
 */
final class ScalarCodecs {
  /** Fixed nine fraction digits, so that instants of years 0000 to 9999 sort as strings. */
  static final DateTimeFormatter INSTANT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 9, 9, true)
          .appendLiteral('Z')
          .toFormatter()
          .withZone(ZoneOffset.UTC);

  private static final Map<Class<?>, ValueCodec> BY_TYPE = new HashMap<>();

  /**
   * The codecs of the commonest field types, which {@link ClassModel} recognises by identity and
   * applies inline on reading instead of through a codec call per field.
   */
  static final ValueCodec STRING =
      codec(AttributeType.STRING, v -> AttributeValue.of((String) v), s -> string(s));

  static final ValueCodec BOOLEAN =
      codec(AttributeType.BOOLEAN, v -> AttributeValue.of((Boolean) v), ScalarCodecs::bool);

  static final ValueCodec LONG =
      codec(
          AttributeType.NUMBER,
          v -> AttributeValue.of(((Number) v).longValue()),
          s -> exactLong(number(s)));

  static final ValueCodec INT =
      codec(
          AttributeType.NUMBER,
          v -> AttributeValue.of(((Number) v).longValue()),
          s -> exactInt(number(s)));

  /** Powers of ten that fit a long, by exponent. */
  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  /**
   * {@link BigDecimal#longValueExact()}, without its slow path for the common whole numbers with
   * trailing zeros: stored numbers are normalised (1000 is held as 1E+3, scale -3), for which the
   * JDK rescales and inflates to a {@link BigInteger}. Anything else, overflow included, goes to
   * the JDK's method, so results and exceptions are the same.
   */
  static long exactLong(BigDecimal d) {
    int scale = d.scale();
    if (scale < 0 && scale >= -18 && d.precision() <= 18) {
      long unscaled = d.unscaledValue().longValue();
      long power = POWERS_OF_TEN[-scale];
      long high = Math.multiplyHigh(unscaled, power);
      long value = unscaled * power;
      if (high == (value >> 63)) { // the product fits in a long
        return value;
      }
    }
    return d.longValueExact();
  }

  /** {@link BigDecimal#intValueExact()}, with the fast path of {@link #exactLong}. */
  static int exactInt(BigDecimal d) {
    if (d.scale() < 0) {
      long value = exactLong(d);
      if (value == (int) value) {
        return (int) value;
      }
    }
    return d.intValueExact();
  }

  static {
    BY_TYPE.put(String.class, STRING);
    BY_TYPE.put(Boolean.class, BOOLEAN);
    BY_TYPE.put(boolean.class, BOOLEAN);
    BY_TYPE.put(long.class, LONG);
    BY_TYPE.put(Long.class, LONG);
    BY_TYPE.put(int.class, INT);
    BY_TYPE.put(Integer.class, INT);
    integral(short.class, Short.class, s -> number(s).shortValueExact());
    integral(byte.class, Byte.class, s -> number(s).byteValueExact());
    ValueCodec dbl =
        codec(
            AttributeType.NUMBER,
            v -> AttributeValue.of(finite(((Number) v).doubleValue(), v)),
            s -> number(s).doubleValue());
    BY_TYPE.put(double.class, dbl);
    BY_TYPE.put(Double.class, dbl);
    ValueCodec flt =
        codec(
            AttributeType.NUMBER,
            v -> AttributeValue.of(finite(((Number) v).doubleValue(), v)),
            s -> number(s).floatValue());
    BY_TYPE.put(float.class, flt);
    BY_TYPE.put(Float.class, flt);
    BY_TYPE.put(
        BigDecimal.class,
        codec(AttributeType.NUMBER, v -> AttributeValue.of((BigDecimal) v), ScalarCodecs::number));
    BY_TYPE.put(
        BigInteger.class,
        codec(
            AttributeType.NUMBER,
            v -> AttributeValue.of(new BigDecimal((BigInteger) v)),
            s -> number(s).toBigIntegerExact()));
    BY_TYPE.put(
        Instant.class,
        codec(
            AttributeType.STRING,
            v -> AttributeValue.of(INSTANT.format((Instant) v)),
            s -> Instant.parse(string(s))));
    BY_TYPE.put(
        LocalDate.class,
        codec(
            AttributeType.STRING,
            v -> AttributeValue.of(v.toString()),
            s -> LocalDate.parse(string(s))));
    BY_TYPE.put(
        UUID.class,
        codec(
            AttributeType.STRING,
            v -> AttributeValue.of(v.toString()),
            s -> UUID.fromString(string(s))));
    BY_TYPE.put(
        Duration.class,
        codec(
            AttributeType.NUMBER,
            v -> AttributeValue.of(seconds((Duration) v)),
            s -> duration(number(s))));
    BY_TYPE.put(
        byte[].class,
        codec(
            AttributeType.BINARY,
            v -> AttributeValue.of((byte[]) v),
            s -> binary(s).toByteArray()));
    BY_TYPE.put(
        ByteBuffer.class,
        codec(
            AttributeType.BINARY,
            v -> AttributeValue.of(Bytes.of(((ByteBuffer) v).duplicate())),
            s -> ByteBuffer.wrap(binary(s).toByteArray())));
    BY_TYPE.put(
        Bytes.class,
        codec(AttributeType.BINARY, v -> AttributeValue.of((Bytes) v), ScalarCodecs::binary));
  }

  private ScalarCodecs() {}

  /** The built-in codec of {@code type}, or null if it has none. */
  static ValueCodec forClass(Class<?> type) {
    return BY_TYPE.get(type);
  }

  /** An enum, stored as its constant's name. */
  static ValueCodec forEnum(Class<?> type) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    Class<? extends Enum> e = (Class<? extends Enum>) type;
    return codec(
        AttributeType.STRING,
        v -> AttributeValue.of(((Enum<?>) v).name()),
        s -> {
          String name = string(s);
          try {
            @SuppressWarnings("unchecked")
            Object constant = Enum.valueOf(e, name);
            return constant;
          } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException(
                "'" + name + "' is not a constant of " + type.getName());
          }
        });
  }

  /** Any stored value, as it is. */
  static final ValueCodec RAW = codec(null, v -> (AttributeValue) v, s -> s);

  private static void integral(
      Class<?> primitive, Class<?> boxed, Function<AttributeValue, Object> read) {
    ValueCodec c =
        codec(AttributeType.NUMBER, v -> AttributeValue.of(((Number) v).longValue()), read);
    BY_TYPE.put(primitive, c);
    BY_TYPE.put(boxed, c);
  }

  static ValueCodec codec(
      AttributeType type,
      Function<Object, AttributeValue> encode,
      Function<AttributeValue, Object> decode) {
    return new ValueCodec() {
      @Override
      public AttributeValue encode(Object value) {
        return encode.apply(value);
      }

      @Override
      public Object decode(AttributeValue stored) {
        return decode.apply(stored);
      }

      @Override
      public AttributeType storedType() {
        return type;
      }
    };
  }

  static String string(AttributeValue v) {
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw mismatch(AttributeType.STRING, v);
  }

  static BigDecimal number(AttributeValue v) {
    if (v instanceof NumberValue n) {
      return n.value();
    }
    throw mismatch(AttributeType.NUMBER, v);
  }

  static Bytes binary(AttributeValue v) {
    if (v instanceof BinaryValue b) {
      return b.value();
    }
    throw mismatch(AttributeType.BINARY, v);
  }

  static Object bool(AttributeValue v) {
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    throw mismatch(AttributeType.BOOLEAN, v);
  }

  static IllegalArgumentException mismatch(AttributeType expected, AttributeValue got) {
    return new IllegalArgumentException("expected a " + expected + " value, found " + got.type());
  }

  private static BigDecimal finite(double d, Object original) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException(
          original + " has no portable stored form: only finite numbers are stored");
    }
    return new BigDecimal(Double.toString(d));
  }

  /** Seconds with a nine-digit fraction: exact, and orders as the durations do. */
  static BigDecimal seconds(Duration d) {
    return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
  }

  static Duration duration(BigDecimal seconds) {
    BigDecimal whole = seconds.setScale(0, java.math.RoundingMode.FLOOR);
    int nanos = seconds.subtract(whole).movePointRight(9).intValueExact();
    return Duration.ofSeconds(whole.longValueExact(), nanos);
  }
}
