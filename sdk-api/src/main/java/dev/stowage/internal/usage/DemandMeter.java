package dev.stowage.internal.usage;

/**
 * Capacity units a table was asked for per minute over the last hour: what it consumed plus what
 * throttled attempts would have consumed, the demand an auto scaler should size for (consumed
 * capacity alone never exceeds what was provisioned). Sixty one-minute slots, reused as time
 * passes. Thread-safe (synchronized).
 */
final class DemandMeter {
  static final int MINUTES = 60;

  private final long[] minute = new long[MINUTES];
  private final long[] writeUnits = new long[MINUTES];
  private final long[] halfReadUnits = new long[MINUTES];

  DemandMeter() {
    java.util.Arrays.fill(minute, Long.MIN_VALUE);
  }

  synchronized void add(long nowMillis, long writes, long halfReads) {
    long m = Math.floorDiv(nowMillis, 60_000);
    int i = (int) Math.floorMod(m, (long) MINUTES);
    if (minute[i] != m) {
      minute[i] = m;
      writeUnits[i] = 0;
      halfReadUnits[i] = 0;
    }
    writeUnits[i] += writes;
    halfReadUnits[i] += halfReads;
  }

  /** The busiest minute's write units per second in the last hour. */
  synchronized double peakWritesPerSecond(long nowMillis) {
    return peak(nowMillis, writeUnits) / 60.0;
  }

  /** The busiest minute's read units per second in the last hour. */
  synchronized double peakReadsPerSecond(long nowMillis) {
    return peak(nowMillis, halfReadUnits) / 120.0;
  }

  private long peak(long nowMillis, long[] units) {
    long m = Math.floorDiv(nowMillis, 60_000);
    long max = 0;
    for (int i = 0; i < MINUTES; i++) {
      if (minute[i] > m - MINUTES && minute[i] <= m) {
        max = Math.max(max, units[i]);
      }
    }
    return max;
  }
}
