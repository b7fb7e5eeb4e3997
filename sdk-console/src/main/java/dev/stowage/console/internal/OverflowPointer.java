package dev.stowage.console.internal;

import dev.stowage.item.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the overflow pointer ({@code stowage:ovf}) of a stored item, as docs/FORMAT.md ("Overflow
 * pointer") pins it, to tell the browser which attributes moved to a blob and how big it is without
 * reading the blob.
 *
 * @param blobKey the blob's key
 * @param size the blob's length in bytes
 * @param names the attributes that moved, or empty when the pointer does not list them
 */
record OverflowPointer(String blobKey, long size, List<String> names) {
  static final String ATTRIBUTE = "stowage:ovf";

  /** The pointer of a stored item, or empty if it has none or it is not one this reader knows. */
  static Optional<OverflowPointer> of(AttributeValue value) {
    if (!(value instanceof AttributeValue.BinaryValue b)) {
      return Optional.empty();
    }
    byte[] a = b.value().toByteArray();
    try {
      int[] at = {0};
      if (a[at[0]++] != 1) {
        return Optional.empty();
      }
      String key = string(a, at);
      long size = varint(a, at);
      long digestLength = varint(a, at);
      at[0] += (int) digestLength;
      int mode = a[at[0]++];
      List<String> names = new ArrayList<>();
      if (mode == 0) {
        long n = varint(a, at);
        for (long i = 0; i < n; i++) {
          names.add(string(a, at));
        }
      }
      return Optional.of(new OverflowPointer(key, size, List.copyOf(names)));
    } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static long varint(byte[] a, int[] at) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = a[at[0]++] & 0xff;
      v |= (long) (b & 0x7f) << shift;
      if (b < 0x80) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint too long");
  }

  private static String string(byte[] a, int[] at) {
    int n = Math.toIntExact(varint(a, at));
    if (n < 0 || at[0] + n > a.length) {
      throw new IllegalArgumentException("string past the end");
    }
    String s = new String(a, at[0], n, StandardCharsets.UTF_8);
    at[0] += n;
    return s;
  }
}
