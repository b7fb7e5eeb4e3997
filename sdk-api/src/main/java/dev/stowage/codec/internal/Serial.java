package dev.stowage.codec.internal;

import dev.stowage.internal.BytesAccess;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Value serialisation for envelope payloads ({@link ValueWire}) with a copy-free path for the two
 * types that carry large payloads. The associated data of encrypted envelopes is {@link Binding}.
 */
final class Serial {
  /** ValueWire's tags for strings and binary values (pinned in docs/FORMAT.md). */
  static final int STRING_TAG = 1;

  static final int BINARY_TAG = 3;

  private Serial() {}

  /**
   * {@code ValueWire.encode(v)}, byte for byte, for callers that only read it. A string or binary
   * value is written straight into an exactly sized array; a binary value that Stowage decoded from
   * its serialisation, and that still shares that array (see {@link #deserialize}), returns the
   * array itself.
   */
  static byte[] serialize(AttributeValue v) {
    if (v instanceof BinaryValue b) {
      Bytes bytes = b.value();
      byte[] array = BytesAccess.array(bytes);
      int offset = BytesAccess.offset(bytes);
      int n = bytes.size();
      if (offset > 0 && offset + n == array.length && isHead(array, offset, BINARY_TAG, n)) {
        return array;
      }
      byte[] out = new byte[1 + varintLength(n) + n];
      System.arraycopy(array, offset, out, out.length - n, n);
      head(out, BINARY_TAG, n);
      return out;
    }
    if (v instanceof StringValue s) {
      byte[] utf8 = s.value().getBytes(StandardCharsets.UTF_8);
      int n = utf8.length;
      byte[] out = new byte[1 + varintLength(n) + n];
      System.arraycopy(utf8, 0, out, out.length - n, n);
      head(out, STRING_TAG, n);
      return out;
    }
    return ValueWire.encode(v);
  }

  /** True if {@code b[0, end)} is exactly the serialisation header of {@code length} bytes. */
  private static boolean isHead(byte[] b, int end, int tag, int length) {
    if (end != 1 + varintLength(length) || b[0] != tag) {
      return false;
    }
    long v = length;
    for (int pos = 1; pos < end; pos++, v >>>= 7) {
      byte expected = (byte) (pos == end - 1 ? v : (v & 0x7F) | 0x80);
      if (b[pos] != expected) {
        return false;
      }
    }
    return true;
  }

  /** Longest serialisation header of a top-level string or binary value: tag, 5-byte length. */
  static final int MAX_HEAD = 6;

  private static final byte[] NO_HEAD = new byte[0];

  /**
   * A value's serialisation as two ranges, {@code head[0, headLength) || body[offset, offset +
   * length)}, which are never joined: the codec compresses or encrypts a large string or binary
   * value where its bytes lie, behind its few header bytes, instead of copying it behind them.
   */
  record Split(byte[] head, int headLength, byte[] body, int offset, int length) {
    /** Length of the whole serialisation. */
    int size() {
      return headLength + length;
    }
  }

  /**
   * {@code serialize(v)} as a {@link Split}: a binary value's body is its own backing array (no
   * copy), a string's is its UTF-8 encoding; any other value is serialised whole into the body.
   */
  static Split split(AttributeValue v) {
    if (v instanceof BinaryValue b) {
      Bytes bytes = b.value();
      byte[] head = new byte[MAX_HEAD];
      int h = head(head, BINARY_TAG, bytes.size());
      return new Split(head, h, BytesAccess.array(bytes), BytesAccess.offset(bytes), bytes.size());
    }
    if (v instanceof StringValue s) {
      byte[] utf8 = s.value().getBytes(StandardCharsets.UTF_8);
      byte[] head = new byte[MAX_HEAD];
      int h = head(head, STRING_TAG, utf8.length);
      return new Split(head, h, utf8, 0, utf8.length);
    }
    byte[] whole = ValueWire.encode(v);
    return new Split(NO_HEAD, 0, whole, 0, whole.length);
  }

  /**
   * The tag of the value a {@link Split} holds when it is a string or binary value, whose
   * serialisation is its few header bytes and then its own bytes; 0 for any other value.
   */
  static int flatTag(Split split) {
    return split.headLength() == 0 ? 0 : split.head()[0];
  }

  /**
   * The body of a {@link Split} as one whole array: the value's own bytes for a string or binary
   * value, the whole serialisation for any other. A body that fills its array is that array (a
   * binary value's backing array, which Tink only reads); a binary value viewing part of an array
   * is copied out, as Tink takes whole arrays.
   */
  static byte[] body(Split split) {
    byte[] b = split.body();
    if (split.offset() == 0 && split.length() == b.length) {
      return b;
    }
    return Arrays.copyOfRange(b, split.offset(), split.offset() + split.length());
  }

  /** Length of the serialisation of a string or binary value of {@code n} bytes. */
  static int flatSize(int n) {
    return 1 + varintLength(n) + n;
  }

  /**
   * The string whose UTF-8 encoding is {@code b}, checked as {@link ValueWire} checks strings.
   *
   * @throws ValueWire.MalformedException if {@code b} is not well-formed UTF-8
   */
  static String utf8(byte[] b) {
    String s = new String(b, StandardCharsets.UTF_8);
    // The lenient decoder turns malformed input into U+FFFD; only then decode again strictly (the
    // string may hold U+FFFD itself).
    if (s.indexOf('\uFFFD') < 0) {
      return s;
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ValueWire.MalformedException("invalid UTF-8 in a string payload", e);
    }
  }

  private static int head(byte[] out, int tag, int length) {
    out[0] = (byte) tag;
    return varint(out, 1, length);
  }

  private static int varintLength(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  /**
   * Parses {@code b[offset, offset+length)} as exactly one value. Top-level strings and binary
   * values, the large ones, take a fast path with the same validation as {@link ValueWire}.
   *
   * @throws ValueWire.MalformedException if it is not one
   */
  static AttributeValue deserialize(byte[] b, int offset, int length) {
    if (length > 1 && (b[offset] == STRING_TAG || b[offset] == BINARY_TAG)) {
      AttributeValue v = deserializeFlat(b, offset, length);
      if (v != null) {
        return v;
      }
    }
    ValueWire.Reader r = new ValueWire.Reader(b, offset, length);
    AttributeValue v = r.value();
    if (!r.atEnd()) {
      throw new ValueWire.MalformedException(
          "trailing bytes after value at offset " + r.position());
    }
    return v;
  }

  /**
   * A top-level string or binary value filling the range exactly, or null to take the slow path.
   */
  private static AttributeValue deserializeFlat(byte[] b, int offset, int length) {
    int end = offset + length;
    int pos = offset + 1;
    long n = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= end) {
        return null;
      }
      int x = b[pos++] & 0xFF;
      n |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        if (n != end - pos) {
          return null;
        }
        if (b[offset] == BINARY_TAG) {
          // The value shares b instead of copying it out of its serialisation: callers pass
          // arrays that nobody writes to again (fresh plaintext, or an immutable stored value).
          return AttributeValue.of(BytesAccess.wrap(b, pos, end - pos));
        }
        String s = new String(b, pos, (int) n, StandardCharsets.UTF_8);
        // The lenient decoder turns malformed input into U+FFFD; only then check strictly.
        return s.indexOf('\uFFFD') < 0 ? AttributeValue.of(s) : null;
      }
    }
    return null;
  }

  private static int varint(byte[] out, int pos, int length) {
    long v = length;
    while ((v & ~0x7FL) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
  }
}
