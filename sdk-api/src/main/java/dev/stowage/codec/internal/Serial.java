package dev.stowage.codec.internal;

import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Key;
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
   * {@code ValueWire.encode(v)}, byte for byte. Top-level strings and binary values are written
   * straight into an exactly sized array instead of through a growing buffer.
   */
  static byte[] serialize(AttributeValue v) {
    if (v instanceof StringValue s) {
      return tagged(STRING_TAG, s.value().getBytes(StandardCharsets.UTF_8));
    }
    if (v instanceof BinaryValue b) {
      int n = b.value().size();
      byte[] out = new byte[1 + varintLength(n) + n];
      int pos = head(out, BINARY_TAG, n);
      b.value().asReadOnlyBuffer().get(out, pos, n);
      return out;
    }
    return ValueWire.encode(v);
  }

  private static byte[] tagged(int tag, byte[] payload) {
    byte[] out = new byte[1 + varintLength(payload.length) + payload.length];
    int pos = head(out, tag, payload.length);
    System.arraycopy(payload, 0, out, pos, payload.length);
    return out;
  }

  private static int head(byte[] out, int tag, int length) {
    out[0] = (byte) tag;
    int pos = 1;
    long v = length;
    while ((v & ~0x7FL) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
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
   * Parses {@code b[offset, offset+length)} as exactly one value.
   *
   * @throws ValueWire.MalformedException if it is not one
   */
  static AttributeValue deserialize(byte[] b, int offset, int length) {
    ValueWire.Reader r = new ValueWire.Reader(b, offset, length);
    AttributeValue v = r.value();
    if (!r.atEnd()) {
      throw new ValueWire.MalformedException(
          "trailing bytes after value at offset " + r.position());
    }
    return v;
  }

  /**
   * The associated data binding a ciphertext to its place: the envelope header, the logical table
   * name, the item key and the attribute name (docs/FORMAT.md, "Associated data"). The namespace
   * and backend are deliberately absent so values move between them without re-encryption.
   */
  static byte[] associatedData(byte[] header, String table, Key key, String attribute) {
    ValueWire.Writer w = new ValueWire.Writer();
    w.bytes(header).string(table).value(key.partition());
    if (key.sortOrNull() == null) {
      w.u8(0);
    } else {
      w.u8(1).value(key.sortOrNull());
    }
    w.string(attribute);
    return w.toByteArray();
  }
}
