package dev.stowage.usage;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns on usage tracking for a store ({@code Stowage.Builder.usageTracking}): per-table usage for
 * cost estimates and hot-key rankings, read with {@code Stowage.usage()}. Off unless set: it costs
 * a few map updates per request (and a lock per table and index ranking). Immutable.
 *
 * <pre>{@code
 * Stowage store = Stowage.builder(driver)
 *     .usageTracking(UsageTracking.builder()
 *         .window(Duration.ofMinutes(5))
 *         .snapshotFile(Path.of("/var/run/app/stowage-usage.properties"), Duration.ofSeconds(2))
 *         .build())
 *     .build();
 * }</pre>
 *
 * @param topK keys each ranking reports
 * @param counters Space-Saving counters per window slice and ranking (the memory bound), at least
 *     {@code topK}
 * @param window the sliding window of the rankings
 * @param slices time slices the window is cut into (it slides by one slice)
 * @param snapshotFile where to write the usage snapshot periodically (for {@code stowage top} and
 *     {@code stowage cost}), or null for none
 * @param snapshotInterval how often to write it
 */
public record UsageTracking(
    int topK,
    int counters,
    Duration window,
    int slices,
    Path snapshotFile,
    Duration snapshotInterval) {

  /** Checks the arguments. */
  public UsageTracking {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(snapshotInterval, "snapshotInterval");
    if (topK < 1 || counters < topK) {
      throw new IllegalArgumentException("need 1 <= topK <= counters");
    }
    if (slices < 1 || window.toMillis() < slices) {
      throw new IllegalArgumentException("need at least one slice of at least 1 ms");
    }
    if (snapshotInterval.isNegative() || snapshotInterval.isZero()) {
      throw new IllegalArgumentException("snapshot interval must be positive");
    }
  }

  /** The defaults: top 10 of 100 counters per slice, a 60-second window in 6 slices, no file. */
  public static UsageTracking defaults() {
    return builder().build();
  }

  /** Starts from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The snapshot file, if one is configured. */
  public Optional<Path> snapshotPath() {
    return Optional.ofNullable(snapshotFile);
  }

  /** Builds a {@link UsageTracking}; not thread-safe. */
  public static final class Builder {
    private int topK = 10;
    private int counters = 100;
    private Duration window = Duration.ofSeconds(60);
    private int slices = 6;
    private Path snapshotFile;
    private Duration snapshotInterval = Duration.ofSeconds(2);

    private Builder() {}

    /** Keys each ranking reports; default 10. */
    public Builder topK(int k) {
      this.topK = k;
      return this;
    }

    /** Counters per slice and ranking; default 100. More counters, smaller errors. */
    public Builder counters(int n) {
      this.counters = n;
      return this;
    }

    /** The rankings' window; default 60 seconds. */
    public Builder window(Duration w) {
      this.window = Objects.requireNonNull(w, "window");
      return this;
    }

    /** Slices of the window; default 6. */
    public Builder slices(int n) {
      this.slices = n;
      return this;
    }

    /**
     * Writes the snapshot to {@code file} every {@code interval} (replacing it atomically), on a
     * daemon thread the store stops when closed.
     */
    public Builder snapshotFile(Path file, Duration interval) {
      this.snapshotFile = Objects.requireNonNull(file, "file");
      this.snapshotInterval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** Builds it. @throws IllegalArgumentException on invalid settings */
    public UsageTracking build() {
      return new UsageTracking(topK, counters, window, slices, snapshotFile, snapshotInterval);
    }
  }
}
