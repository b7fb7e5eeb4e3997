package dev.stowage.capacity;

import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recommends provisioned capacity for a DynamoDB-style table from the demand Stowage observed (the
 * request counts, throttled ones included, not the consumed capacity the console shows, which never
 * exceeds what was provisioned), and warns before a scale-up that would split partitions for good.
 *
 * <p>Partitions follow DynamoDB's published formula {@code ceil(RCU / 3000 + WCU / 1000)} (at least
 * 1); they split when capacity grows and never merge. The backend does not report them, so the
 * advisor derives them from the highest capacity the table has ever had, which the caller supplies.
 * Immutable and thread-safe.
 */
public final class CapacityAdvisor {
  /** Read units one partition serves per second. */
  public static final int READ_UNITS_PER_PARTITION = 3000;

  /** Write units one partition serves per second. */
  public static final int WRITE_UNITS_PER_PARTITION = ProvisionedTable.UNITS_PER_PARTITION;

  private final double target;

  /**
   * An advisor sizing capacity so that demand is {@code targetUtilisation} of it.
   *
   * @param targetUtilisation in (0, 1], for example 0.7
   */
  public CapacityAdvisor(double targetUtilisation) {
    if (!(targetUtilisation > 0 && targetUtilisation <= 1)) {
      throw new IllegalArgumentException("target utilisation must be in (0, 1]");
    }
    this.target = targetUtilisation;
  }

  /** Partitions a table with this capacity has (at least). */
  public static int partitions(long readUnits, long writeUnits) {
    double p =
        (double) readUnits / READ_UNITS_PER_PARTITION
            + (double) writeUnits / WRITE_UNITS_PER_PARTITION;
    return (int) Math.max(1, Math.ceil(p - 1e-9));
  }

  /**
   * Advice for one table.
   *
   * @param readUnits recommended read capacity units
   * @param writeUnits recommended write capacity units
   * @param partitionsNow partitions the table has now (from its highest capacity ever)
   * @param partitionsAfter partitions it will have after the change (never fewer)
   * @param warnings what to beware of, empty when nothing
   */
  public record Advice(
      long readUnits,
      long writeUnits,
      int partitionsNow,
      int partitionsAfter,
      List<String> warnings) {
    /** Copies the warnings. */
    public Advice {
      warnings = List.copyOf(warnings);
    }

    /** True if the change splits partitions permanently. */
    public boolean dilutes() {
      return partitionsAfter > partitionsNow;
    }
  }

  /**
   * Capacity for a demand.
   *
   * @param peakReadUnitsPerSecond read units asked for per second at the peak, throttled included
   * @param peakWriteUnitsPerSecond write units asked for per second at the peak, throttled included
   * @param highestReadUnits the highest read capacity the table ever had (partitions follow it)
   * @param highestWriteUnits the highest write capacity it ever had
   * @param baselineReadUnits the read capacity it returns to after the peak
   * @param baselineWriteUnits the write capacity it returns to after the peak
   * @param hottestKeyWriteShare the share of writes on the busiest partition key (from {@link
   *     HotKeys}), 0 if unknown
   */
  public Advice advise(
      double peakReadUnitsPerSecond,
      double peakWriteUnitsPerSecond,
      long highestReadUnits,
      long highestWriteUnits,
      long baselineReadUnits,
      long baselineWriteUnits,
      double hottestKeyWriteShare) {
    long rcu = Math.max(1, (long) Math.ceil(peakReadUnitsPerSecond / target - 1e-9));
    long wcu = Math.max(1, (long) Math.ceil(peakWriteUnitsPerSecond / target - 1e-9));
    int now = partitions(highestReadUnits, highestWriteUnits);
    int after = Math.max(now, partitions(rcu, wcu));
    List<String> warnings = new ArrayList<>();
    if (after > now) {
      double before = (double) baselineWriteUnits / now;
      double diluted = (double) baselineWriteUnits / after;
      warnings.add(
          String.format(
              Locale.ROOT,
              "scaling to %d RCU / %d WCU splits the table from %d into %d partitions for good:"
                  + " back at %d WCU each partition gets %.0f write units per second instead of"
                  + " %.0f; consider a temporary cache or queue instead, or a new table",
              rcu,
              wcu,
              now,
              after,
              baselineWriteUnits,
              diluted,
              before));
      double hot = hottestKeyWriteShare * baselineWriteUnits * target;
      if (hottestKeyWriteShare > 0 && hot > diluted) {
        warnings.add(
            String.format(
                Locale.ROOT,
                "the hottest partition key takes %.0f%% of writes, %.0f units per second at the"
                    + " baseline, more than a diluted partition's %.0f: it would be throttled"
                    + " below the table's capacity",
                hottestKeyWriteShare * 100,
                hot,
                diluted));
      }
    }
    return new Advice(rcu, wcu, now, after, warnings);
  }

  /**
   * Capacity for one table from what Stowage observed: its peak demand of the last hour and, if
   * given, its hot keys' share of writes.
   *
   * @param highestReadUnits the highest read capacity the table ever had
   * @param highestWriteUnits the highest write capacity it ever had
   */
  public Advice advise(
      TableUsage usage, Optional<HotKeys> hotKeys, long highestReadUnits, long highestWriteUnits) {
    double share =
        hotKeys
            .filter(h -> h.requests() > 0 && !h.byRequests().isEmpty())
            .map(h -> (double) h.byRequests().get(0).guaranteed() / h.requests())
            .orElse(0.0);
    return advise(
        usage.peakReadUnitsPerSecond(),
        usage.peakWriteUnitsPerSecond(),
        highestReadUnits,
        highestWriteUnits,
        highestReadUnits,
        highestWriteUnits,
        share);
  }
}
