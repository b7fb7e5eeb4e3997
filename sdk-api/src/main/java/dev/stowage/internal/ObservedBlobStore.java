package dev.stowage.internal;

import dev.stowage.RequestListener;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.internal.BlobKeys;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A blob store that reports every request to a {@link RequestListener}, with the table a blob key
 * belongs to. A read is reported when its stream is closed, with the bytes the caller read.
 * Thread-safe if the delegate is.
 */
public final class ObservedBlobStore implements BlobStore {
  private static final Where UNKNOWN = new Where("", "");

  private final BlobStore delegate;
  private final Observed observed;

  /**
   * Wraps {@code delegate}; closing this closes it.
   *
   * @param backend the name of the store's driver, reported with every request
   */
  public ObservedBlobStore(BlobStore delegate, String backend, RequestListener listener) {
    this.delegate = delegate;
    this.observed = new Observed(listener, backend, RequestListener.Target.BLOB);
  }

  /** The namespace and table of a blob, or empty strings when unknown. */
  private record Where(String namespace, String table) {}

  private static Where tableOf(String key) {
    try {
      return BlobKeys.tableOf(key).map(t -> new Where(t.namespace(), t.table())).orElse(UNKNOWN);
    } catch (RuntimeException e) {
      return UNKNOWN;
    }
  }

  private static Where tableOfPrefix(String prefix) {
    return tableOf(prefix.endsWith("/") ? prefix + "0".repeat(32) : prefix);
  }

  @Override
  public void put(String key, InputStream data, long length) {
    Where t = tableOf(key);
    observed.run("put", t.namespace(), t.table(), length, () -> delegate.put(key, data, length));
  }

  @Override
  public void put(String key, byte[] data) {
    Where t = tableOf(key);
    observed.run("put", t.namespace(), t.table(), data.length, () -> delegate.put(key, data));
  }

  @Override
  public Optional<InputStream> open(String key) {
    Where t = tableOf(key);
    long start = System.nanoTime();
    Optional<InputStream> in;
    try {
      in = delegate.open(key);
    } catch (RuntimeException | Error e) {
      observed.report("open", t.namespace(), t.table(), start, 0, 0, e);
      throw e;
    }
    if (in.isEmpty()) {
      observed.report("open", t.namespace(), t.table(), start, 0, 0, null);
      return in;
    }
    return Optional.of(new CountingStream(in.get(), t, start));
  }

  @Override
  public void delete(String key) {
    Where t = tableOf(key);
    observed.run("delete", t.namespace(), t.table(), 0, () -> delegate.delete(key));
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    Where t = keys.isEmpty() ? UNKNOWN : tableOf(keys.iterator().next());
    observed.run("deleteAll", t.namespace(), t.table(), 0, () -> delegate.deleteAll(keys));
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    Where t = tableOfPrefix(prefix);
    return observed.call(
        "list", t.namespace(), t.table(), () -> delegate.list(prefix), r -> 0, r -> 0);
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Counts what the caller reads and reports the read when the stream is closed. */
  private final class CountingStream extends FilterInputStream {
    private final Where table;
    private final long start;
    private long read;
    private boolean reported;

    CountingStream(InputStream in, Where table, long start) {
      super(in);
      this.table = table;
      this.start = start;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        read++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        read += n;
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      read += skipped;
      return skipped;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        if (!reported) {
          reported = true;
          observed.report("open", table.namespace(), table.table(), start, 0, read, null);
        }
      }
    }
  }
}
