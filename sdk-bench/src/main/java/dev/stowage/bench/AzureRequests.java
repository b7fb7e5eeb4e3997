package dev.stowage.bench;

import dev.stowage.spi.StorageDriver;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Counts the requests a driver's client sends to Azurite while a hop runs (its {@link
 * dev.stowage.spi.CapacityListener}: one storage transaction is one request), by kind.
 */
final class AzureRequests {
  final java.util.concurrent.atomic.LongAdder reads = new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder writes = new java.util.concurrent.atomic.LongAdder();
  final java.util.concurrent.atomic.LongAdder deletes = new java.util.concurrent.atomic.LongAdder();

  Callable<Double> counting(StorageDriver driver, Callable<Double> turn) {
    return () -> {
      reads.reset();
      writes.reset();
      deletes.reset();
      driver.capacityListener(
          (table, index, r, w, d) -> {
            if (index.isEmpty()) {
              reads.add((long) r);
              writes.add((long) w);
              deletes.add((long) d);
            }
          });
      try {
        return turn.call();
      } finally {
        driver.capacityListener(dev.stowage.spi.CapacityListener.NONE);
      }
    };
  }

  String per100(int n) {
    double k = 100.0 / n;
    return String.format(
        Locale.ROOT,
        "  requests into Azurite per 100 items (warm-up round): migrator %.2f (reads %.2f,"
            + " writes %.2f, deletes %.2f); raw client %.2f",
        (reads.sum() + writes.sum() + deletes.sum()) * k,
        reads.sum() * k,
        writes.sum() * k,
        deletes.sum() * k,
        // one transaction per account's run of at most 100 items, as RawAzure.write sends them
        (double) LedgerItems.ACCOUNTS * Math.ceil((double) n / LedgerItems.ACCOUNTS / 100) * k);
  }
}
