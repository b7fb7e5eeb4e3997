package dev.stowage.codec.internal;

import dev.stowage.internal.BytesAccess;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.nio.charset.StandardCharsets;

/**
 * Value serialisation for envelope payloads ({@link ValueWire}) with a copy-free path for the two
 * types that carry large payloads, and the canonical associated data of encrypted envelopes.
 */
final class Serial {
  /** ValueWire's tags for strings and binary values (pinned in docs/FORMAT.md). */
  private static final int STRING_TAG = 1;

  private static final int BINARY_TAG = 3;

  private Serial() {}

  /**
   * {@code ValueWire.encode(v)}, byte for byte: the two parts of {@link #split} joined, so a
   * top-level string or binary value is written straight into an exactly sized array.
   */
  static byte[] serialize(AttributeValue v) {
    Split split = split(v);
    if (split.headLength() == 0) {
      return split.body();
    }
    byte[] out = new byte[split.size()];
    System.arraycopy(split.head(), 0, out, 0, split.headLength());
    System.arraycopy(split.body(), split.offset(), out, split.headLength(), split.length());
    return out;
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

  /**
   * The associated data binding a ciphertext to its place: the envelope header, the logical table
   * name, the item key and the attribute name (docs/FORMAT.md, "Associated data"). The namespace
   * and backend are deliberately absent so values move between them without re-encryption.
   */
  static byte[] associatedData(byte[] header, String table, Key key, String attribute) {
    return associatedData(header, 0, header.length, table, key, attribute);
  }

  /** {@link #associatedData} for the header {@code b[offset, offset + headerLength)}. */
  static byte[] associatedData(
      byte[] b, int offset, int headerLength, String table, Key key, String attribute) {
    // Built on every encrypted read and write: key strings and binary keys are written straight
    // into the result rather than through their serialisations (two copies fewer).
    byte[] t = table.getBytes(StandardCharsets.UTF_8);
    KeyValue partition = key.partition();
    KeyValue sort = key.sortOrNull();
    byte[] p = keyBytes(partition);
    byte[] s = sort == null ? null : keyBytes(sort);
    byte[] a = attribute.getBytes(StandardCharsets.UTF_8);
    byte[] out =
        new byte
            [varintLength(headerLength)
                + headerLength
                + varintLength(t.length)
                + t.length
                + keyLength(partition, p)
                + 1
                + (sort == null ? 0 : keyLength(sort, s))
                + varintLength(a.length)
                + a.length];
    int pos = varint(out, 0, headerLength);
    System.arraycopy(b, offset, out, pos, headerLength);
    pos += headerLength;
    pos = put(out, pos, t, true);
    pos = putKey(out, pos, partition, p);
    out[pos++] = (byte) (sort == null ? 0 : 1);
    if (sort != null) {
      pos = putKey(out, pos, sort, s);
    }
    put(out, pos, a, true);
    return out;
  }

  /**
   * The bytes a key value contributes: a string's UTF-8, a binary value's bytes (null: read in
   * place), anything else its whole serialisation.
   */
  private static byte[] keyBytes(KeyValue v) {
    if (v instanceof StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    return v instanceof BinaryValue ? null : serialize(v);
  }

  private static int keyLength(KeyValue v, byte[] bytes) {
    if (v instanceof StringValue) {
      return 1 + varintLength(bytes.length) + bytes.length;
    }
    if (v instanceof BinaryValue b) {
      int n = b.value().size();
      return 1 + varintLength(n) + n;
    }
    return bytes.length;
  }

  /** Writes {@code serialize(v)} given its {@link #keyBytes}; returns the new end. */
  private static int putKey(byte[] out, int pos, KeyValue v, byte[] bytes) {
    if (v instanceof StringValue) {
      out[pos] = STRING_TAG;
      return put(out, pos + 1, bytes, true);
    }
    if (v instanceof BinaryValue bv) {
      Bytes b = bv.value();
      out[pos] = BINARY_TAG;
      pos = varint(out, pos + 1, b.size());
      System.arraycopy(BytesAccess.array(b), BytesAccess.offset(b), out, pos, b.size());
      return pos + b.size();
    }
    return put(out, pos, bytes, false);
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

  private static int put(byte[] out, int pos, byte[] b, boolean lengthPrefixed) {
    if (lengthPrefixed) {
      long v = b.length;
      while ((v & ~0x7FL) != 0) {
        out[pos++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out[pos++] = (byte) v;
    }
    System.arraycopy(b, 0, out, pos, b.length);
    return pos + b.length;
  }
}
