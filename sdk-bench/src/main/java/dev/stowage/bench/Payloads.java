package dev.stowage.bench;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Deterministic JSON-like text: an array of order records with repeated field names, numbers, short
 * enumerations and free-text notes, compressing about as well as real JSON documents do. The same
 * size always yields the same bytes (fixed seed), so every run and every side of a benchmark sees
 * identical payloads. Stateless and thread-safe.
 */
public final class Payloads {
  private static final String[] STATUS = {"pending", "paid", "shipped", "delivered", "returned"};
  private static final String[] WORDS = {
    "fragile",
    "gift",
    "express",
    "leave",
    "at",
    "door",
    "call",
    "before",
    "delivery",
    "blue",
    "large",
    "warehouse",
    "north",
    "second",
    "floor",
    "thanks",
    "customer",
    "requested",
    "invoice",
    "discount"
  };

  private Payloads() {}

  /** Exactly {@code size} bytes of ASCII JSON-like text. */
  public static byte[] jsonLike(int size) {
    SplittableRandom rnd = new SplittableRandom(0x5709A6EL + size);
    StringBuilder sb = new StringBuilder(size + 512);
    sb.append('[');
    for (int i = 0; sb.length() < size; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append("{\"orderId\":\"ord-")
          .append(100000 + rnd.nextInt(900000))
          .append("\",\"customer\":{\"id\":")
          .append(rnd.nextInt(50000))
          .append(",\"tier\":\"")
          .append(rnd.nextBoolean() ? "gold" : "standard")
          .append("\"},\"status\":\"")
          .append(STATUS[rnd.nextInt(STATUS.length)])
          .append("\",\"total\":")
          .append(rnd.nextInt(100000) / 100.0)
          .append(",\"items\":")
          .append(1 + rnd.nextInt(9))
          .append(",\"note\":\"");
      int words = rnd.nextInt(8);
      for (int w = 0; w < words; w++) {
        sb.append(w == 0 ? "" : " ").append(WORDS[rnd.nextInt(WORDS.length)]);
      }
      sb.append("\"}");
    }
    sb.setLength(size - 1);
    sb.append(']');
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * Exactly {@code size} bytes: {@link #jsonLike} blocks of 1 MB repeated, built without any
   * intermediate copy of the whole (for large items whose peak heap is measured). Compresses far
   * better than {@link #jsonLike} of the same size; use it only where nothing is compressed.
   */
  public static byte[] filled(int size) {
    byte[] block = jsonLike(Math.min(size, 1 << 20));
    byte[] out = new byte[size];
    for (int at = 0; at < size; at += block.length) {
      System.arraycopy(block, 0, out, at, Math.min(block.length, size - at));
    }
    return out;
  }
}
