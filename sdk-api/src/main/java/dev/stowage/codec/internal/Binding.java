package dev.stowage.codec.internal;

import dev.stowage.internal.BytesAccess;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.AttributeValue.StringValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import java.nio.charset.StandardCharsets;

/**
 * The associated data binding an encrypted envelope to its place (docs/FORMAT.md, "Associated
 * data"):
 *
 * <pre>
 * varint(h) || header || str(table) || value(partition) || 00 | 01 || value(sort) || str(attribute)
 * </pre>
 *
 * <p>Built on every encrypted read and write, so it is written straight into one array of its exact
 * size, header included (a writer copies the header from there). Names and key strings go through
 * the JDK's UTF-8 encoder on each call: keeping the names' encoded forms in a map, or writing key
 * strings char by char into the result, measured no faster (about 33 ns per binding either way,
 * against about 140 ns for each fresh 1 KB array on the same path). Stateless.
 */
final class Binding {
  private Binding() {}

  /**
   * The associated data of an envelope about to be written: its header (flags and dictionary as
   * {@link Envelope#writeHeader}) is written at {@link #HEADER_OFFSET}, from where the writer
   * copies it into the envelope, so it is built once.
   */
  static byte[] forWrite(int flags, int dictionaryId, String table, Key key, String attribute) {
    return build(
        null, 0, Envelope.headerLength(dictionaryId), flags, dictionaryId, table, key, attribute);
  }

  /** Where {@link #forWrite} puts the envelope header: after its one-byte length. */
  static final int HEADER_OFFSET = 1;

  /** The associated data of the stored envelope whose header is {@code b[offset, offset + h)}. */
  static byte[] forRead(
      byte[] b, int offset, int headerLength, String table, Key key, String attribute) {
    return build(b, offset, headerLength, 0, 0, table, key, attribute);
  }

  /** The header is copied from {@code b} if not null, else written from flags and dictionary. */
  private static byte[] build(
      byte[] b,
      int offset,
      int headerLength,
      int flags,
      int dictionaryId,
      String table,
      Key key,
      String attribute) {
    byte[] t = table.getBytes(StandardCharsets.UTF_8);
    byte[] a = attribute.getBytes(StandardCharsets.UTF_8);
    KeyValue partition = key.partition();
    KeyValue sort = key.sortOrNull();
    // A key string's UTF-8 is encoded once, by the JDK's vectorised encoder (a char-by-char write
    // into the result measured slower); a binary key is read in place.
    byte[] p = keyBytes(partition);
    byte[] s = sort == null ? null : keyBytes(sort);
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
    if (b == null) {
      Envelope.writeHeader(out, pos, flags, dictionaryId);
    } else {
      System.arraycopy(b, offset, out, pos, headerLength);
    }
    pos = varint(out, pos + headerLength, t.length);
    pos = put(out, pos, t);
    pos = putKey(out, pos, partition, p);
    out[pos++] = (byte) (sort == null ? 0 : 1);
    if (sort != null) {
      pos = putKey(out, pos, sort, s);
    }
    pos = varint(out, pos, a.length);
    put(out, pos, a);
    return out;
  }

  /**
   * The bytes a key value contributes: a string's UTF-8, null for a binary value (read in place), a
   * number's whole serialisation.
   */
  private static byte[] keyBytes(KeyValue v) {
    if (v instanceof StringValue s) {
      return s.value().getBytes(StandardCharsets.UTF_8);
    }
    return v instanceof BinaryValue ? null : ValueWire.encode(v);
  }

  /** Length of {@code value(v)} given its {@link #keyBytes}. */
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

  /** Writes {@code value(v)} given its {@link #keyBytes}; returns the new end. */
  private static int putKey(byte[] out, int pos, KeyValue v, byte[] bytes) {
    if (v instanceof StringValue) {
      out[pos] = Serial.STRING_TAG;
      pos = varint(out, pos + 1, bytes.length);
      return put(out, pos, bytes);
    }
    if (v instanceof BinaryValue bv) {
      Bytes b = bv.value();
      out[pos] = Serial.BINARY_TAG;
      pos = varint(out, pos + 1, b.size());
      System.arraycopy(BytesAccess.array(b), BytesAccess.offset(b), out, pos, b.size());
      return pos + b.size();
    }
    return put(out, pos, bytes);
  }

  private static int put(byte[] out, int pos, byte[] b) {
    System.arraycopy(b, 0, out, pos, b.length);
    return pos + b.length;
  }

  private static int varintLength(int v) {
    int n = 1;
    while ((v & ~0x7F) != 0) {
      v >>>= 7;
      n++;
    }
    return n;
  }

  private static int varint(byte[] out, int pos, int v) {
    while ((v & ~0x7F) != 0) {
      out[pos++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[pos++] = (byte) v;
    return pos;
  }
}
