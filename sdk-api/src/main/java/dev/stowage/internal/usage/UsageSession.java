package dev.stowage.internal.usage;

import dev.stowage.usage.UsageTracking;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's usage tracking: its {@link UsageRecorder} and, when a snapshot file is configured, the
 * daemon thread that writes it every interval (and once more on close). Thread-safe.
 */
public final class UsageSession implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UsageSession.class);

  private final UsageRecorder recorder;
  private final ScheduledExecutorService exporter;

  public UsageSession(UsageTracking config, Clock clock, String backend) {
    this.recorder = new UsageRecorder(config, clock, backend);
    Path file = config.snapshotFile();
    if (file == null) {
      exporter = null;
      return;
    }
    exporter =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stowage-usage-snapshot");
              t.setDaemon(true);
              return t;
            });
    long every = config.snapshotInterval().toMillis();
    exporter.scheduleWithFixedDelay(this::export, 0, Math.max(1, every), TimeUnit.MILLISECONDS);
  }

  public UsageRecorder recorder() {
    return recorder;
  }

  private void export() {
    try {
      recorder.snapshot().writeTo(recorder.config().snapshotFile());
    } catch (IOException | RuntimeException e) {
      // A monitoring file never fails the application; the next interval tries again.
      LOG.warn("cannot write the usage snapshot {}", recorder.config().snapshotFile(), e);
    }
  }

  /** Stops the exporter after writing a last snapshot. Idempotent. */
  @Override
  public void close() {
    if (exporter != null && !exporter.isShutdown()) {
      exporter.shutdownNow();
      try {
        exporter.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      export();
    }
  }
}
