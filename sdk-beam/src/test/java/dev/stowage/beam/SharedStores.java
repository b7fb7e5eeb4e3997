package dev.stowage.beam;

import dev.stowage.memory.MemoryDriver;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * In-memory stores shared by name within the test JVM, so the DirectRunner's workers (DoFn
 * instances deserialised in the same JVM) open the same data the test wrote; and a fault injector
 * that fails a store's batch writes after a number of them.
 */
final class SharedStores {
  static final Map<String, MemoryDriver> DRIVERS = new ConcurrentHashMap<>();
  static final Map<String, MemoryBlobStore> BLOBS = new ConcurrentHashMap<>();

  /** Batch writes left before writes to the named store fail; absent: never. */
  static final Map<String, AtomicInteger> WRITES_BEFORE_FAILURE = new ConcurrentHashMap<>();

  /**
   * Batch writes that fail once {@link #WRITES_BEFORE_FAILURE} is used up, before writes succeed
   * again (a worker that crashed and whose bundle the runner retries); absent: every one fails.
   */
  static final Map<String, AtomicInteger> FAILURES_LEFT = new ConcurrentHashMap<>();

  /** Batch writes that failed, by store. */
  static final Map<String, AtomicInteger> FAILED_WRITES = new ConcurrentHashMap<>();

  /** Batch writes each named store received. */
  static final Map<String, AtomicInteger> BATCH_WRITES = new ConcurrentHashMap<>();

  private SharedStores() {}

  static MemoryDriver driver(String name) {
    return DRIVERS.computeIfAbsent(name, n -> MemoryDriver.create());
  }

  static MemoryBlobStore blobs(String name) {
    return BLOBS.computeIfAbsent(name, n -> new MemoryBlobStore());
  }

  /** A store spec opening the shared store {@code name} (closing it leaves the data). */
  static StoreSpec spec(String name, String namespace) {
    return StoreSpec.of(
        () -> new Unclosed(name, driver(name), false), () -> blobs(name), namespace);
  }

  /** Fails the batch writes to {@code name} after {@code writes} of them. */
  static void failAfter(String name, int writes) {
    WRITES_BEFORE_FAILURE.put(name, new AtomicInteger(writes));
  }

  /**
   * Fails {@code failures} batch writes to {@code name} after {@code writes} successful ones; the
   * writes after them succeed.
   */
  static void failAfter(String name, int writes, int failures) {
    FAILURES_LEFT.put(name, new AtomicInteger(failures));
    WRITES_BEFORE_FAILURE.put(name, new AtomicInteger(writes));
  }

  static int failedWrites(String name) {
    AtomicInteger n = FAILED_WRITES.get(name);
    return n == null ? 0 : n.get();
  }

  static void reset() {
    DRIVERS.clear();
    BLOBS.clear();
    WRITES_BEFORE_FAILURE.clear();
    FAILURES_LEFT.clear();
    FAILED_WRITES.clear();
    BATCH_WRITES.clear();
  }

  /**
   * A driver whose batch writes fail when {@link #failAfter} says so, counted under {@code name};
   * it closes the driver it wraps only if asked to (shared memory drivers are left open).
   */
  static final class Unclosed extends ForwardingDriver {
    private final String name;
    private final boolean closes;

    Unclosed(String name, StorageDriver delegate, boolean closes) {
      super(delegate);
      this.name = name;
      this.closes = closes;
    }

    @Override
    public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
      AtomicInteger left = WRITES_BEFORE_FAILURE.get(name);
      if (left != null && left.getAndDecrement() <= 0) {
        AtomicInteger failures = FAILURES_LEFT.get(name);
        if (failures != null && failures.getAndDecrement() <= 0) {
          BATCH_WRITES.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
          return delegate.batchWrite(table, writes);
        }
        FAILED_WRITES.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
        throw new IllegalStateException("simulated worker crash writing to " + name);
      }
      BATCH_WRITES.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
      return delegate.batchWrite(table, writes);
    }

    @Override
    public void close() {
      if (closes) {
        delegate.close();
      }
    }
  }
}
