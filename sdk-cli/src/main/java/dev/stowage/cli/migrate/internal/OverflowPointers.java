package dev.stowage.cli.migrate.internal;

import dev.stowage.IntegrityException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.spi.TableRef;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads and rewrites the blob key of an overflow pointer ({@code stowage:ovf}) following the stored
 * format (docs/FORMAT-overflow.md, version 1): a version byte, then the blob key as a varint length
 * and UTF-8 bytes, then fields this class copies unchanged (size, SHA-256, moved names). Only the
 * key changes when a table is copied to another namespace or table name, because blob keys start
 * with {@code <namespace or _root>/<table>/}. Stateless and thread-safe.
 */
public final class OverflowPointers {
  /** The reserved attribute holding the pointer. */
  public static final String ATTRIBUTE = "stowage:ovf";

  private static final int VERSION = 1;

  private OverflowPointers() {}

  /** The blob key prefix of a table: {@code <namespace or _root>/<table>/}. */
  public static String prefix(TableRef ref) {
    return (ref.namespace().isEmpty() ? "_root" : ref.namespace()) + "/" + ref.table() + "/";
  }

  /**
   * The blob key a pointer names.
   *
   * @throws IntegrityException if the value is not a version-1 pointer
   */
  public static String blobKey(AttributeValue pointer) {
    byte[] b = bytes(pointer);
    int[] pos = {1};
    long len = varint(b, pos);
    if (len > b.length - pos[0]) {
      throw new IntegrityException("overflow pointer's blob key overruns the pointer");
    }
    return new String(b, pos[0], (int) len, StandardCharsets.UTF_8);
  }

  /** The same pointer naming {@code newKey} instead of its blob key. */
  public static BinaryValue withBlobKey(AttributeValue pointer, String newKey) {
    byte[] b = bytes(pointer);
    int[] pos = {1};
    long len = varint(b, pos);
    int rest = pos[0] + (int) len;
    ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 16);
    out.write(VERSION);
    byte[] key = newKey.getBytes(StandardCharsets.UTF_8);
    long v = key.length;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    out.write(key, 0, key.length);
    out.write(b, rest, b.length - rest);
    return new BinaryValue(Bytes.wrap(out.toByteArray()));
  }

  /**
   * The key a blob gets in the target table: the target prefix followed by what followed the source
   * prefix (or the last path segment for a key outside the source prefix).
   */
  public static String rebase(String blobKey, TableRef source, TableRef target) {
    String from = prefix(source);
    String to = prefix(target);
    if (from.equals(to)) {
      return blobKey;
    }
    String tail =
        blobKey.startsWith(from)
            ? blobKey.substring(from.length())
            : blobKey.substring(blobKey.lastIndexOf('/') + 1);
    return to + tail;
  }

  private static byte[] bytes(AttributeValue pointer) {
    if (!(pointer instanceof BinaryValue bv)) {
      throw new IntegrityException("overflow pointer is a " + pointer.type() + ", not binary");
    }
    byte[] b = bv.value().toByteArray();
    if (b.length < 2 || b[0] != VERSION) {
      throw new IntegrityException(
          "overflow pointer has unknown format version " + (b.length == 0 ? "(empty)" : b[0]));
    }
    return b;
  }

  private static long varint(byte[] b, int[] pos) {
    long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      if (pos[0] >= b.length) {
        throw new IntegrityException("overflow pointer is truncated");
      }
      int x = b[pos[0]++] & 0xFF;
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
    throw new IntegrityException("overflow pointer has a malformed length");
  }
}
