package dev.stowage.azure.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinarySetValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.BooleanValue;
import dev.stowage.item.AttributeValue.ListValue;
import dev.stowage.item.AttributeValue.MapValue;
import dev.stowage.item.AttributeValue.NullValue;
import dev.stowage.item.AttributeValue.NumberSetValue;
import dev.stowage.item.AttributeValue.NumberValue;
import dev.stowage.item.AttributeValue.StringSetValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The typed encoding for values Azure has no exact EDM type for (decimals that are not 64-bit
 * integers, null, lists, maps, sets): a self-describing binary format stored as {@code Edm.Binary}.
 *
 * <p>Layout: a format byte ({@value #FORMAT}), then one tagged value. Tags: 0 null, 1 false, 2
 * true, 3 string (length, UTF-8), 4 number (length, {@link BigDecimal#toString()} in ASCII), 5
 * binary (length, bytes), 6 list (count, values), 7 map (count, then name as a string and value),
 * 8/9/10 string/number/binary set (count, elements without tags). Lengths and counts are unsigned
 * LEB128 varints.
 */
public final class TypedCodec {
  static final int FORMAT = 1;

  private TypedCodec() {}

  /** Encodes a value. */
  public static byte[] encode(AttributeValue value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(FORMAT);
    write(out, value);
    return out.toByteArray();
  }

  /** Encodes a named value (for attributes stored under a hashed property name). */
  public static byte[] encodeNamed(String name, AttributeValue value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(FORMAT);
    writeString(out, name);
    write(out, value);
    return out.toByteArray();
  }

  /** Decodes {@link #encode}'s output. */
  public static AttributeValue decode(byte[] data) {
    Reader r = reader(data);
    AttributeValue v = r.value();
    r.end();
    return v;
  }

  /** Decodes {@link #encodeNamed}'s output. */
  public static Map.Entry<String, AttributeValue> decodeNamed(byte[] data) {
    Reader r = reader(data);
    String name = r.string();
    AttributeValue v = r.value();
    r.end();
    return Map.entry(name, v);
  }

  private static Reader reader(byte[] data) {
    if (data.length == 0 || data[0] != FORMAT) {
      throw new IllegalArgumentException("unknown typed value format");
    }
    Reader r = new Reader(data);
    r.pos = 1;
    return r;
  }

  private static void write(ByteArrayOutputStream out, AttributeValue value) {
    if (value instanceof NullValue) {
      out.write(0);
    } else if (value instanceof BooleanValue b) {
      out.write(b.value() ? 2 : 1);
    } else if (value instanceof StringValue s) {
      out.write(3);
      writeString(out, s.value());
    } else if (value instanceof NumberValue n) {
      out.write(4);
      writeString(out, n.value().toString());
    } else if (value instanceof BinaryValue b) {
      out.write(5);
      writeBytes(out, b.value().toByteArray());
    } else if (value instanceof ListValue l) {
      out.write(6);
      varint(out, l.values().size());
      l.values().forEach(v -> write(out, v));
    } else if (value instanceof MapValue m) {
      out.write(7);
      varint(out, m.values().size());
      m.values()
          .forEach(
              (k, v) -> {
                writeString(out, k);
                write(out, v);
              });
    } else if (value instanceof StringSetValue s) {
      out.write(8);
      varint(out, s.values().size());
      s.values().forEach(x -> writeString(out, x));
    } else if (value instanceof NumberSetValue s) {
      out.write(9);
      varint(out, s.values().size());
      s.values().forEach(x -> writeString(out, x.toString()));
    } else if (value instanceof BinarySetValue s) {
      out.write(10);
      varint(out, s.values().size());
      s.values().forEach(x -> writeBytes(out, x.toByteArray()));
    } else {
      throw new IllegalArgumentException("unknown value type " + value.type());
    }
  }

  private static void writeString(ByteArrayOutputStream out, String s) {
    writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
  }

  private static void writeBytes(ByteArrayOutputStream out, byte[] b) {
    varint(out, b.length);
    out.write(b, 0, b.length);
  }

  private static void varint(ByteArrayOutputStream out, int v) {
    while ((v & ~0x7F) != 0) {
      out.write((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  private static final class Reader {
    private final byte[] data;
    private int pos;

    Reader(byte[] data) {
      this.data = data;
    }

    void end() {
      if (pos != data.length) {
        throw new IllegalArgumentException("trailing bytes in typed value");
      }
    }

    int varint() {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = data[pos++] & 0xFF;
        v |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new IllegalArgumentException("malformed varint");
    }

    byte[] bytes() {
      int n = varint();
      if (n < 0 || n > data.length - pos) {
        throw new IllegalArgumentException("truncated typed value");
      }
      byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
      pos += n;
      return b;
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    AttributeValue value() {
      int tag = data[pos++];
      return switch (tag) {
        case 0 -> AttributeValue.nullValue();
        case 1 -> AttributeValue.of(false);
        case 2 -> AttributeValue.of(true);
        case 3 -> AttributeValue.of(string());
        case 4 -> AttributeValue.of(new BigDecimal(string()));
        case 5 -> AttributeValue.of(Bytes.wrap(bytes()));
        case 6 -> {
          int n = varint();
          List<AttributeValue> l = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            l.add(value());
          }
          yield AttributeValue.list(l);
        }
        case 7 -> {
          int n = varint();
          Map<String, AttributeValue> m = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            String k = string();
            m.put(k, value());
          }
          yield AttributeValue.map(m);
        }
        case 8 -> {
          int n = varint();
          List<String> l = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            l.add(string());
          }
          yield AttributeValue.stringSet(l);
        }
        case 9 -> {
          int n = varint();
          List<BigDecimal> l = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            l.add(new BigDecimal(string()));
          }
          yield AttributeValue.numberSet(l);
        }
        case 10 -> {
          int n = varint();
          List<Bytes> l = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            l.add(Bytes.wrap(bytes()));
          }
          yield AttributeValue.binarySet(l);
        }
        default -> throw new IllegalArgumentException("unknown typed value tag " + tag);
      };
    }
  }
}
