package dev.stowage.overflow.internal;

import dev.stowage.IntegrityException;
import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.internal.ItemAccess;
import dev.stowage.internal.Metrics;
import dev.stowage.internal.OverflowHandler;
import dev.stowage.internal.Retrier;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Overflow to a {@link BlobStore}: oversized items keep their key, indexed and reserved attributes
 * and a pointer ({@value OverflowHandler#POINTER_ATTRIBUTE}); their largest other attributes move,
 * still in their stored (compressed or encrypted) form, into one blob written before the item.
 *
 * <p>Thread-safe. Every blob store call runs under the retrier given (the store's {@link
 * dev.stowage.RetryPolicy}): a blob put streams a body generated afresh for each attempt, a read
 * opens and reads the whole blob again on each attempt, and deletes are repeated as they are.
 * Errors left after the last attempt ({@link dev.stowage.ThrottledException}, {@link
 * UnavailableException}) propagate; the core does not retry these calls again.
 */
public final class BlobOverflow implements OverflowHandler {
  private final RetryingBlobs blobs;
  private final Executor fetchExecutor;
  private final Metrics metrics;

  /**
   * Uses a shared pool of up to 16 daemon threads for parallel page fetches, and makes one attempt
   * per blob store call.
   */
  public BlobOverflow(BlobStore store) {
    this(store, DefaultPool.INSTANCE);
  }

  /** Retries blob store calls with {@code retrier}; fetches pages in the shared pool. */
  public BlobOverflow(BlobStore store, Retrier retrier) {
    this(store, DefaultPool.INSTANCE, retrier);
  }

  /**
   * One attempt per blob store call, counted in counters of its own; see {@link
   * #BlobOverflow(BlobStore, Executor, Retrier)}.
   */
  public BlobOverflow(BlobStore store, Executor fetchExecutor) {
    this(store, fetchExecutor, new Retrier(RetryPolicy.NONE, new Metrics()));
  }

  /**
   * @param store where blobs go; not closed by this class
   * @param fetchExecutor runs the blob fetches of {@link #restoreAll} (the caller blocks until they
   *     finish; an executor that runs tasks on the calling thread works too, serially)
   * @param retrier the retry policy every blob store call runs under; blobs written and read are
   *     counted per table in its {@link Retrier#metrics()}
   */
  public BlobOverflow(BlobStore store, Executor fetchExecutor, Retrier retrier) {
    this.blobs = new RetryingBlobs(store, retrier);
    this.fetchExecutor = Objects.requireNonNull(fetchExecutor, "fetchExecutor");
    this.metrics = retrier.metrics();
  }

  @Override
  public Prepared prepare(TableRef table, TableSpec spec, DriverLimits limits, Item encoded) {
    FitPlanner.Plan plan = FitPlanner.plan(table, spec, limits, encoded);
    if (plan == null) {
      return new Prepared(encoded, null);
    }
    Map<String, AttributeValue> moved = new LinkedHashMap<>();
    Set<String> names = new HashSet<>(plan.moved());
    encoded
        .attributes()
        .forEach(
            (k, v) -> {
              if (names.contains(k)) {
                moved.put(k, v);
              }
            });
    BlobBody body = BlobBody.of(moved);
    Pointer pointer =
        new Pointer(
            plan.blobKey(),
            body.length(),
            Bytes.wrap(body.sha256Digest()),
            plan.namesListed() ? plan.moved() : List.of(),
            plan.namesListed());
    Item stored = FitPlanner.withPointer(encoded, plan.moved(), pointer);
    String stillTooBig = FitPlanner.violation(limits, stored);
    if (stillTooBig != null) {
      throw new IllegalStateException(
          "size model counts the final pointer larger than its upper bound: " + stillTooBig);
    }
    try {
      // The body is generated from the moved values, so every attempt streams it from the start.
      blobs.put(plan.blobKey(), body::openStream, body.length());
      metrics.table(table).overflowWritten(body.length());
    } catch (RuntimeException e) {
      // The put may have landed; remove what we can, the sweeper collects the rest.
      try {
        blobs.delete(plan.blobKey());
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return new Prepared(stored, plan.blobKey());
  }

  @Override
  public Item restore(TableRef table, Item stored, Set<String> needed) {
    AttributeValue raw = stored.attributes().get(POINTER_ATTRIBUTE);
    if (raw == null) {
      return stored;
    }
    Pointer pointer = Pointer.parse(raw, table.toString());
    if (!pointer.mayHoldAny(needed, stored)) {
      return withoutPointer(stored);
    }
    return merge(table, stored, pointer, fetch(table, pointer));
  }

  @Override
  public List<Item> restoreAll(TableRef table, List<Item> stored, Set<String> needed) {
    List<Item> out = new ArrayList<>(stored);
    List<Integer> toFetch = new ArrayList<>();
    for (int i = 0; i < stored.size(); i++) {
      Item item = stored.get(i);
      AttributeValue raw = item.attributes().get(POINTER_ATTRIBUTE);
      if (raw == null) {
        continue;
      }
      if (Pointer.parse(raw, table.toString()).mayHoldAny(needed, item)) {
        toFetch.add(i);
      } else {
        out.set(i, withoutPointer(item));
      }
    }
    if (toFetch.size() == 1) {
      int i = toFetch.get(0);
      out.set(i, restore(table, stored.get(i), needed));
    } else if (!toFetch.isEmpty()) {
      List<CompletableFuture<Item>> futures = new ArrayList<>();
      for (int i : toFetch) {
        Item item = stored.get(i);
        futures.add(
            CompletableFuture.supplyAsync(() -> restore(table, item, needed), fetchExecutor));
      }
      try {
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
      } catch (CompletionException e) {
        futures.forEach(f -> f.cancel(false));
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        throw e;
      }
      for (int j = 0; j < toFetch.size(); j++) {
        out.set(toFetch.get(j), futures.get(j).join());
      }
    }
    return out;
  }

  @Override
  public void release(TableRef table, Item replaced) {
    pointerToDelete(table, replaced).ifPresent(blobs::delete);
  }

  @Override
  public void abandon(TableRef table, Prepared prepared) {
    if (prepared.blobKey() != null) {
      blobs.delete(prepared.blobKey());
    }
  }

  /**
   * The blob key a stored item's pointer names, if it has a readable pointer to a blob of {@code
   * table}. A malformed pointer, or one naming another table's blob (data copied between tables),
   * yields empty: such blobs are never deleted on this table's behalf.
   */
  static Optional<String> pointerToDelete(TableRef table, Item stored) {
    AttributeValue raw = stored.attributes().get(POINTER_ATTRIBUTE);
    if (raw == null) {
      return Optional.empty();
    }
    Pointer pointer;
    try {
      pointer = Pointer.parse(raw, table.toString());
    } catch (IntegrityException e) {
      return Optional.empty();
    }
    return pointer.blobKey().startsWith(BlobKeys.tablePrefix(table))
        ? Optional.of(pointer.blobKey())
        : Optional.empty();
  }

  private static Item withoutPointer(Item stored) {
    Map<String, AttributeValue> rest = new LinkedHashMap<>(stored.attributes());
    rest.remove(POINTER_ATTRIBUTE);
    return ItemAccess.ofStored(rest);
  }

  /**
   * Reads and checks a pointer's blob. An attempt that fails while reading starts over with a fresh
   * stream, so values are only ever taken from one whole, verified read.
   */
  private Map<String, AttributeValue> fetch(TableRef table, Pointer pointer) {
    String where = "overflow blob " + pointer.blobKey() + " of table " + table;
    return blobs
        .read(
            pointer.blobKey(),
            where,
            in -> {
              try {
                BlobReader reader = new BlobReader(in, pointer.size());
                Map<String, AttributeValue> values = reader.readAttributes();
                byte[] digest = reader.finish();
                if (!java.security.MessageDigest.isEqual(digest, pointer.sha256().toByteArray())) {
                  throw new IntegrityException(
                      where + " does not match its pointer's SHA-256 digest");
                }
                metrics.table(table).overflowRead(pointer.size());
                return values;
              } catch (BlobReader.FormatException e) {
                throw new IntegrityException(where + " is malformed: " + e.getMessage());
              }
            })
        .orElseThrow(() -> new BlobMissingException(pointer.blobKey()));
  }

  private static Item merge(
      TableRef table, Item stored, Pointer pointer, Map<String, AttributeValue> values) {
    boolean consistent =
        pointer.namesListed()
            ? values.keySet().equals(new HashSet<>(pointer.names()))
            : !values.isEmpty();
    if (!consistent) {
      throw new IntegrityException(
          "overflow blob "
              + pointer.blobKey()
              + " of table "
              + table
              + " holds "
              + values.keySet()
              + " but its pointer names "
              + pointer.describeNames());
    }
    Map<String, AttributeValue> all = new LinkedHashMap<>(stored.attributes());
    all.remove(POINTER_ATTRIBUTE);
    for (Map.Entry<String, AttributeValue> e : values.entrySet()) {
      if (all.put(e.getKey(), e.getValue()) != null) {
        throw new IntegrityException(
            "attribute '"
                + e.getKey()
                + "' of an item of table "
                + table
                + " is both in the item and in its overflow blob "
                + pointer.blobKey());
      }
    }
    return ItemAccess.ofStored(all);
  }

  /** Daemon threads for blob fetches, shared by every handler built without an executor. */
  private static final class DefaultPool {
    static final Executor INSTANCE = create();

    private static Executor create() {
      AtomicInteger n = new AtomicInteger();
      ThreadPoolExecutor pool =
          new ThreadPoolExecutor(
              16,
              16,
              30,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              r -> {
                Thread t = new Thread(r, "stowage-overflow-fetch-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
      pool.allowCoreThreadTimeOut(true);
      return pool;
    }
  }
}
