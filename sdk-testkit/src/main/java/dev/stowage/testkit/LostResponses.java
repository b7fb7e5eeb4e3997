package dev.stowage.testkit;

import dev.stowage.UnavailableException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.ForwardingDriver;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import dev.stowage.spi.WriteOp;
import dev.stowage.spi.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A "response lost" fault injector for a driver and a blob store together: the chosen call is
 * carried out by the backend, and then fails with {@link UnavailableException} as a timed-out
 * request whose response never arrived would. This is the most common failure of a real network,
 * and the one after which a retry meets its own landed write.
 *
 * <p>Calls are numbered from zero across the wrapped driver's item operations (reads, writes,
 * queries, scans, batches, transactions, native updates; not table management) and the wrapped blob
 * store's operations, in the order they start. Thread-safe.
 */
public final class LostResponses {
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicBoolean fired = new AtomicBoolean();
  private volatile int loseAt = -1;

  /** Loses the response of call {@code n} (zero-based) from now on; call numbering restarts. */
  public void loseResponseOfCall(int n) {
    calls.set(0);
    fired.set(false);
    loseAt = n;
  }

  /** Loses no response from now on; call numbering restarts. */
  public void heal() {
    loseAt = -1;
    calls.set(0);
    fired.set(false);
  }

  /** Calls numbered since the last {@link #loseResponseOfCall} or {@link #heal}. */
  public int calls() {
    return calls.get();
  }

  /** Whether the planned response was lost (its call happened). */
  public boolean fired() {
    return fired.get();
  }

  private <T> T call(String what, Supplier<T> action) {
    int n = calls.getAndIncrement();
    if (n == loseAt) {
      fired.set(true); // even if the call fails by itself, its number came
    }
    T result = action.get();
    if (n == loseAt) {
      if (result instanceof InputStream in) {
        try {
          in.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      throw new UnavailableException(
          "injected fault: the response of call " + n + " (" + what + ") was lost after it ran");
    }
    return result;
  }

  private void run(String what, Runnable action) {
    call(
        what,
        () -> {
          action.run();
          return null;
        });
  }

  /** {@code driver}, losing the planned response when its call comes. */
  public StorageDriver wrap(StorageDriver driver) {
    return new ForwardingDriver(driver) {
      @Override
      public Optional<StoredItem> get(TableLayout table, Key key, boolean consistentRead) {
        return call("get", () -> delegate.get(table, key, consistentRead));
      }

      @Override
      public BatchGetResult batchGet(TableLayout table, List<Key> keys, boolean consistentRead) {
        return call("batchGet", () -> delegate.batchGet(table, keys, consistentRead));
      }

      @Override
      public WriteResult put(
          TableLayout table, Item item, Expectation expect, boolean returnPrevious) {
        return call("put", () -> delegate.put(table, item, expect, returnPrevious));
      }

      @Override
      public WriteResult delete(
          TableLayout table, Key key, Expectation expect, boolean returnPrevious) {
        return call("delete", () -> delegate.delete(table, key, expect, returnPrevious));
      }

      @Override
      public BatchWriteResult batchWrite(TableLayout table, List<WriteOp> writes) {
        return call("batchWrite", () -> delegate.batchWrite(table, writes));
      }

      @Override
      public QueryResult query(TableLayout table, DriverQuery query) {
        return call("query", () -> delegate.query(table, query));
      }

      @Override
      public QueryResult scan(TableLayout table, DriverScan scan) {
        return call("scan", () -> delegate.scan(table, scan));
      }

      @Override
      public void transactWrite(List<TableLayout> layouts, List<TxOp> ops) {
        run("transactWrite", () -> delegate.transactWrite(layouts, ops));
      }

      @Override
      public StoredItem updateNative(
          TableLayout table, Key key, Update update, Condition condition) {
        return call("updateNative", () -> delegate.updateNative(table, key, update, condition));
      }
    };
  }

  /** {@code store}, losing the planned response when its call comes. */
  public BlobStore wrap(BlobStore store) {
    return new BlobStore() {
      @Override
      public void put(String key, InputStream data, long length) {
        run("blob put", () -> store.put(key, data, length));
      }

      @Override
      public Optional<InputStream> open(String key) {
        return Optional.ofNullable(call("blob open", () -> store.open(key).orElse(null)));
      }

      @Override
      public void delete(String key) {
        run("blob delete", () -> store.delete(key));
      }

      @Override
      public Stream<BlobInfo> list(String prefix) {
        return call("blob list", () -> store.list(prefix).toList()).stream();
      }
    };
  }
}
