package dev.stowage.capacity;

/**
 * Writes per second offered to a table over time, for the {@link CapacitySimulator}. The two
 * patterns of the auto-scaling experiment this package reproduces are provided; any function of the
 * elapsed second can be used. Implementations must be pure (same second, same rate) so that
 * simulations are deterministic.
 */
@FunctionalInterface
public interface TrafficPattern {
  /**
   * The write rate at an elapsed time.
   *
   * @param second seconds since the simulation started, from 0
   * @return writes per second, not negative
   */
  double writesPerSecond(long second);

  /**
   * The bell curve: 25 writes/s for 15 minutes, a steady climb to 300 writes/s over 45 minutes, a
   * fall back to 25 writes/s over 15 minutes, then 25 writes/s.
   */
  static TrafficPattern bellCurve() {
    return s -> {
      double m = s / 60.0;
      if (m < 15) {
        return 25;
      }
      if (m < 60) {
        return 25 + 275 * (m - 15) / 45;
      }
      if (m < 75) {
        return 300 - 275 * (m - 60) / 15;
      }
      return 25;
    };
  }

  /**
   * The top-heavy spike: 25 writes/s for 15 minutes, a climb to 300 writes/s over 5 minutes, then a
   * decline of 3 writes/s per minute down to 25 writes/s, where it stays.
   */
  static TrafficPattern topHeavy() {
    return s -> {
      double m = s / 60.0;
      if (m < 15) {
        return 25;
      }
      if (m < 20) {
        return 25 + 275 * (m - 15) / 5;
      }
      return Math.max(25, 300 - 3 * (m - 20));
    };
  }
}
