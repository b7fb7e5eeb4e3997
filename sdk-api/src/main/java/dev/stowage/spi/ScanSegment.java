package dev.stowage.spi;

import java.util.Objects;

/**
 * One of the {@code total} parts a segmented scan divides a table, or the items of one of its
 * indexes, into (see {@link StorageDriver#segments}). The segments of one plan together cover every
 * item exactly once; each is read on its own with {@link StorageDriver#scanSegment}, by any thread,
 * process or machine, and resumes from its own checkpoint.
 *
 * <p>A segment is a plain value: it can be stored (in a migration checkpoint, a job's resume token,
 * a Beam split) and handed back later to the same driver, or to another driver instance addressing
 * the same tables ({@link StorageDriver#location()}). Its {@code bounds} are the driver's own
 * description of the part (a key range, or nothing for DynamoDB's native segments); only the driver
 * that planned the segment reads them.
 *
 * @param index the index whose items the segment holds, or null for the whole table
 * @param number which segment this is, from 0 to {@code total - 1}
 * @param total how many segments the plan has, at least 1
 * @param bounds the driver's description of the segment: printable characters (no line breaks),
 *     possibly empty; never null
 */
public record ScanSegment(String index, int number, int total, String bounds) {
  /** Most segments one plan may have. */
  public static final int MAX_TOTAL = 1_000_000;

  public ScanSegment {
    Objects.requireNonNull(bounds, "bounds");
    if (total < 1 || total > MAX_TOTAL) {
      throw new IllegalArgumentException(
          "a plan has 1 to " + MAX_TOTAL + " segments, not " + total);
    }
    if (number < 0 || number >= total) {
      throw new IllegalArgumentException(
          "segment number " + number + " is outside 0.." + (total - 1));
    }
    for (int i = 0; i < bounds.length(); i++) {
      char c = bounds.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new IllegalArgumentException("segment bounds must be printable ASCII");
      }
    }
  }

  @Override
  public String toString() {
    return (index == null ? "table" : "index " + index) + " segment " + number + "/" + total;
  }
}
