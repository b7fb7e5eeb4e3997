package dev.stowage.overflow;

import dev.stowage.TableSpec;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.internal.OverflowHandler.BlobMissingException;
import dev.stowage.internal.OverflowHandler.Prepared;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The core's write and read protocol around an {@link OverflowHandler}, over an in-memory map
 * standing in for the driver, with crash points between the steps.
 */
public final class FakeCore {
  /** Where the simulated process dies (or a step fails). */
  public enum Crash {
    NONE,
    /** The process dies after the blob is written, before the item write. */
    AFTER_BLOB_WRITE,
    /** The item write fails; the core abandons the prepared blob. */
    ITEM_WRITE_FAILS,
    /** The process dies after the item write, before the old blob is released. */
    AFTER_ITEM_WRITE
  }

  /** Thrown to simulate the process dying at a crash point. */
  public static final class Crashed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Crashed(Crash where) {
      super("simulated crash: " + where);
    }
  }

  /** Thrown by the fake driver when the item write fails. */
  public static final class ItemWriteFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ItemWriteFailed() {
      super("simulated item write failure");
    }
  }

  private final ConcurrentMap<String, Item> driver = new ConcurrentHashMap<>();
  private final OverflowHandler handler;
  private final TableRef table;
  private final TableSpec spec;
  private final DriverLimits limits;
  private final AtomicInteger missingBlobRereads = new AtomicInteger();

  public FakeCore(OverflowHandler handler, TableRef table, TableSpec spec, DriverLimits limits) {
    this.handler = handler;
    this.table = table;
    this.spec = spec;
    this.limits = limits;
  }

  private String keyOf(Item item) {
    return spec.keySchema().keyOf(item).toString();
  }

  /** Writes an (already encoded) item following the protocol, dying at {@code crash}. */
  public void put(Item item, Crash crash) {
    Prepared prepared = handler.prepare(table, spec, limits, item);
    if (crash == Crash.AFTER_BLOB_WRITE) {
      throw new Crashed(crash);
    }
    if (crash == Crash.ITEM_WRITE_FAILS) {
      handler.abandon(table, prepared);
      throw new ItemWriteFailed();
    }
    Item replaced = driver.put(keyOf(item), prepared.item());
    if (crash == Crash.AFTER_ITEM_WRITE) {
      throw new Crashed(crash);
    }
    if (replaced != null) {
      handler.release(table, replaced);
    }
  }

  /** Deletes the item with the same key as {@code item}, then releases its blob. */
  public void delete(Item item) {
    Item removed = driver.remove(keyOf(item));
    if (removed != null) {
      handler.release(table, removed);
    }
  }

  /** Reads an item back, re-reading when its blob vanished under a concurrent overwrite. */
  public Item get(Item keyHolder, Set<String> needed) {
    for (int attempt = 0; ; attempt++) {
      Item stored = driver.get(keyOf(keyHolder));
      if (stored == null) {
        return null;
      }
      try {
        return handler.restore(table, stored, needed);
      } catch (BlobMissingException e) {
        missingBlobRereads.incrementAndGet();
        if (attempt > 1000) {
          throw e;
        }
      }
    }
  }

  /** The raw stored items, as a sweeper's reference source. */
  public Stream<Item> storedItems() {
    return driver.values().stream();
  }

  /** How often a read found its blob gone and re-read the item. */
  public int missingBlobRereads() {
    return missingBlobRereads.get();
  }
}
