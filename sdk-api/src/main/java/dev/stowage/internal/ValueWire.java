package dev.stowage.internal;

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
 * The canonical, language-neutral binary form of an {@link AttributeValue}, used inside codec
 * envelopes, overflow blobs and cursors (specified in docs/FORMAT.md).
 *
 * <p>A value is a type tag byte followed by its payload. Lengths and counts are unsigned LEB128
 * varints. Strings are UTF-8; numbers are the canonical decimal string of the normalised value
 * ({@link BigDecimal#toString()}); map entries and set elements are written in Stowage's order, so
 * equal values always serialise to equal bytes. Stateless and thread-safe.
 */
public final class ValueWire {
  /** Type tags. Never renumber: they are part of the stored format. */
  static final int STRING = 1;

  static final int NUMBER = 2;
  static final int BINARY = 3;
  static final int FALSE = 4;
  static final int TRUE = 5;
  static final int NULL = 6;
  static final int LIST = 7;
  static final int MAP = 8;
  static final int STRING_SET = 9;
  static final int NUMBER_SET = 10;
  static final int BINARY_SET = 11;

  /** Deepest nesting accepted when reading, to bound recursion on hostile input. */
  static final int MAX_DEPTH = 64;

  private ValueWire() {}

  /** Serialises a value. */
  public static byte[] encode(AttributeValue value) {
    Writer w = new Writer();
    w.value(value);
    return w.toByteArray();
  }

  /**
   * Parses a whole buffer holding exactly one value.
   *
   * @throws MalformedException if the bytes are not a valid serialised value
   */
  public static AttributeValue decode(byte[] bytes) {
    Reader r = new Reader(bytes, 0, bytes.length);
    AttributeValue v = r.value(0);
    if (r.pos != r.end) {
      throw new MalformedException("trailing bytes after value at offset " + r.pos);
    }
    return v;
  }

  /** Invalid serialised bytes. */
  public static final class MalformedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception. */
    public MalformedException(String message) {
      super(message);
    }

    /** Creates the exception with a cause. */
    public MalformedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Writes values in the canonical encoding to a destination its subclasses define: {@link Writer}
   * into one growing array, the overflow blob builder into segments that reference large values in
   * place. The tags and the layout of every type are here, once. Not thread-safe.
   */
  public abstract static class Encoder {
    /** For subclasses. */
    protected Encoder() {}

    /** Writes one byte. */
    public abstract Encoder u8(int b);

    /** Writes an unsigned varint. */
    public abstract Encoder varint(long v);

    /** Writes a length-prefixed UTF-8 string. */
    public abstract Encoder string(String s);

    /** Writes length-prefixed bytes. */
    public abstract Encoder binary(Bytes b);

    /** Writes a value. */
    public Encoder value(AttributeValue v) {
      if (v instanceof StringValue s) {
        u8(STRING).string(s.value());
      } else if (v instanceof NumberValue n) {
        u8(NUMBER).string(n.value().toString());
      } else if (v instanceof BinaryValue b) {
        u8(BINARY).binary(b.value());
      } else if (v instanceof BooleanValue b) {
        u8(b.value() ? TRUE : FALSE);
      } else if (v instanceof NullValue) {
        u8(NULL);
      } else if (v instanceof ListValue l) {
        u8(LIST).varint(l.values().size());
        l.values().forEach(this::value);
      } else if (v instanceof MapValue m) {
        map(m.values());
      } else if (v instanceof StringSetValue s) {
        u8(STRING_SET).varint(s.values().size());
        s.values().forEach(this::string);
      } else if (v instanceof NumberSetValue s) {
        u8(NUMBER_SET).varint(s.values().size());
        s.values().forEach(x -> string(x.toString()));
      } else if (v instanceof BinarySetValue s) {
        u8(BINARY_SET).varint(s.values().size());
        s.values().forEach(this::binary);
      } else {
        throw new IllegalArgumentException("unknown value type " + v);
      }
      return this;
    }

    /**
     * Writes a map value with its entries in {@code entries}' iteration order (a {@link MapValue}
     * is in Stowage's order already; the overflow blob keeps the order attributes moved in).
     */
    public Encoder map(Map<String, AttributeValue> entries) {
      u8(MAP).varint(entries.size());
      entries.forEach((k, x) -> string(k).value(x));
      return this;
    }
  }

  /** Appends serialised values and primitives to a growing buffer. Not thread-safe. */
  public static final class Writer extends Encoder {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

    /** An empty buffer. */
    public Writer() {}

    @Override
    public Writer u8(int b) {
      out.write(b);
      return this;
    }

    @Override
    public Writer varint(long v) {
      if (v < 0) {
        throw new IllegalArgumentException("negative varint");
      }
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    /** Writes length-prefixed bytes. */
    public Writer bytes(byte[] b) {
      varint(b.length);
      out.write(b, 0, b.length);
      return this;
    }

    @Override
    public Writer binary(Bytes b) {
      return bytes(b.toByteArray());
    }

    @Override
    public Writer string(String s) {
      return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Writer value(AttributeValue v) {
      super.value(v);
      return this;
    }

    /** The bytes written so far. */
    public byte[] toByteArray() {
      return out.toByteArray();
    }
  }

  /**
   * Reads values in the canonical encoding from a source its subclasses define: {@link Reader} from
   * a byte range, the overflow blob reader from a stream it hashes as it goes. The tags, the layout
   * of every type and the checks on hostile input (nesting depth, lengths and counts that cannot
   * fit what is left, duplicate map keys, invalid numbers) are here, once. Errors are {@link
   * MalformedException}s. Not thread-safe.
   */
  public abstract static class Decoder {
    /** For subclasses. */
    protected Decoder() {}

    /** Reads one byte. */
    public abstract int u8();

    /** Reads exactly {@code n} bytes, {@code n} at most what {@link #remaining} allows. */
    protected abstract byte[] take(int n);

    /** Reads a length-prefixed UTF-8 string, rejecting malformed UTF-8. */
    public abstract String string();

    /** How many bytes are left to read (an upper bound for a stream of known size). */
    protected abstract long remaining();

    /** The offset of the next byte, for error messages. */
    protected abstract long offset();

    /** Reads an unsigned varint of at most 63 bits. */
    public final long varint() {
      long v = 0;
      for (int shift = 0; shift < 63; shift += 7) {
        int b = u8();
        v |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          return v;
        }
      }
      throw new MalformedException("varint too long at offset " + offset());
    }

    /** Reads a varint that must fit the remaining input as a length. */
    protected final int length() {
      long n = varint();
      if (n > remaining() || n > Integer.MAX_VALUE - 8) {
        throw new MalformedException(
            "length "
                + n
                + " exceeds the remaining "
                + remaining()
                + " bytes at offset "
                + offset());
      }
      return (int) n;
    }

    /** Reads a varint element count; every element takes at least one byte. */
    private int count() {
      return length();
    }

    /** Reads length-prefixed bytes. */
    public byte[] bytes() {
      return take(length());
    }

    /** Reads a value. */
    public AttributeValue value() {
      return value(0);
    }

    /** Reads a value found {@code depth} levels deep (deeper than 64 is refused). */
    public final AttributeValue value(int depth) {
      if (depth > MAX_DEPTH) {
        throw new MalformedException("nesting deeper than " + MAX_DEPTH);
      }
      int tag = u8();
      try {
        switch (tag) {
          case STRING:
            return AttributeValue.of(string());
          case NUMBER:
            return AttributeValue.of(number());
          case BINARY:
            return AttributeValue.of(Bytes.wrap(bytes()));
          case FALSE:
            return AttributeValue.of(false);
          case TRUE:
            return AttributeValue.of(true);
          case NULL:
            return AttributeValue.nullValue();
          case LIST:
            {
              int n = count();
              List<AttributeValue> l = new ArrayList<>(Math.min(n, 1024));
              for (int i = 0; i < n; i++) {
                l.add(value(depth + 1));
              }
              return new ListValue(l);
            }
          case MAP:
            return new MapValue(entries(depth));
          case STRING_SET:
            {
              int n = count();
              List<String> l = new ArrayList<>(Math.min(n, 1024));
              for (int i = 0; i < n; i++) {
                l.add(string());
              }
              return AttributeValue.stringSet(l);
            }
          case NUMBER_SET:
            {
              int n = count();
              List<BigDecimal> l = new ArrayList<>(Math.min(n, 1024));
              for (int i = 0; i < n; i++) {
                l.add(number());
              }
              return AttributeValue.numberSet(l);
            }
          case BINARY_SET:
            {
              int n = count();
              List<Bytes> l = new ArrayList<>(Math.min(n, 1024));
              for (int i = 0; i < n; i++) {
                l.add(Bytes.wrap(bytes()));
              }
              return AttributeValue.binarySet(l);
            }
          default:
            throw new MalformedException(
                "unknown type tag " + tag + " at offset " + (offset() - 1));
        }
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new MalformedException("invalid value: " + e.getMessage(), e);
      }
    }

    /**
     * Reads a value that must be a map, {@code depth} levels deep, and returns its entries in the
     * order they were written.
     */
    public final Map<String, AttributeValue> map(int depth) {
      int tag = u8();
      if (tag != MAP) {
        throw new MalformedException("expected a map, found type tag " + tag);
      }
      return entries(depth);
    }

    private Map<String, AttributeValue> entries(int depth) {
      int n = count();
      Map<String, AttributeValue> m = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        String k = string();
        if (m.put(k, value(depth + 1)) != null) {
          throw new MalformedException("duplicate map key '" + k + "'");
        }
      }
      return m;
    }

    private BigDecimal number() {
      String s = string();
      if (s.length() > 200) {
        throw new MalformedException("number text too long");
      }
      try {
        return new BigDecimal(s);
      } catch (NumberFormatException e) {
        throw new MalformedException("invalid number '" + s + "'", e);
      }
    }
  }

  /** Reads serialised values and primitives from a byte range. Not thread-safe. */
  public static final class Reader extends Decoder {
    private final byte[] buf;
    private int pos;
    private final int end;

    /** Reads {@code buf[offset, offset+length)}. */
    public Reader(byte[] buf, int offset, int length) {
      this.buf = buf;
      this.pos = offset;
      this.end = offset + length;
    }

    /** Current offset. */
    public int position() {
      return pos;
    }

    /** True if everything was read. */
    public boolean atEnd() {
      return pos == end;
    }

    @Override
    public int u8() {
      if (pos >= end) {
        throw new MalformedException("truncated: expected a byte at offset " + pos);
      }
      return buf[pos++] & 0xFF;
    }

    @Override
    protected byte[] take(int n) {
      byte[] b = new byte[n];
      System.arraycopy(buf, pos, b, 0, n);
      pos += n;
      return b;
    }

    @Override
    protected long remaining() {
      return end - pos;
    }

    @Override
    protected long offset() {
      return pos;
    }

    @Override
    public String string() {
      int n = length();
      if (ascii(buf, pos, n)) {
        // Most strings (names, table names, key values) are ASCII, which is valid UTF-8 and needs
        // no checking decoder.
        String s = new String(buf, pos, n, StandardCharsets.ISO_8859_1);
        pos += n;
        return s;
      }
      var decoder =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
              .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
      try {
        String s = decoder.decode(java.nio.ByteBuffer.wrap(buf, pos, n)).toString();
        pos += n;
        return s;
      } catch (java.nio.charset.CharacterCodingException e) {
        throw new MalformedException("invalid UTF-8 at offset " + pos, e);
      }
    }

    private static boolean ascii(byte[] b, int from, int n) {
      for (int i = from, end = from + n; i < end; i++) {
        if (b[i] < 0) {
          return false;
        }
      }
      return true;
    }
  }
}
