package dev.stowage;

import static dev.stowage.item.AttributeType.STRING;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs in {@link WithoutMicrometerTest}'s class loader, which has no Micrometer. */
public final class WithoutMicrometerProbe implements Runnable {
  private String result = "not run";

  @Override
  public void run() {
    try {
      Class.forName("io.micrometer.core.instrument.MeterRegistry");
      throw new AssertionError("Micrometer is visible to the probe");
    } catch (ClassNotFoundException expected) {
      // as intended
    }
    AtomicInteger requests = new AtomicInteger();
    try (Stowage store =
        Stowage.builder(MemoryDriver.create())
            .blobStore(new MemoryBlobStore())
            .requestListener(r -> requests.incrementAndGet())
            .build()) {
      Table t = store.ensureTable(TableSpec.builder("things", KeySchema.of("id", STRING)).build());
      t.put(Item.builder().put("id", "a").put("n", 1).build());
      if (t.get(Key.of("a")).isEmpty() || store.metrics().reads() != 1 || requests.get() < 3) {
        throw new AssertionError("store misbehaved: " + store.metrics() + ", " + requests);
      }
    }
    result = "ok without micrometer";
  }

  @Override
  public String toString() {
    return result;
  }
}
