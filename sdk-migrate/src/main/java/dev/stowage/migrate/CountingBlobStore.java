package dev.stowage.migrate;

import dev.stowage.overflow.BlobStore;
import java.io.InputStream;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/** A blob store decorator counting blobs and bytes written and read. Thread-safe. */
public final class CountingBlobStore implements BlobStore {
  private final BlobStore delegate;
  private final boolean closeDelegate;
  private final LongAdder puts = new LongAdder();
  private final LongAdder bytesPut = new LongAdder();
  private final LongAdder opens = new LongAdder();
  private final LongAdder deletes = new LongAdder();

  /** Wraps {@code delegate}; closing this closes it. */
  public CountingBlobStore(BlobStore delegate) {
    this(delegate, true);
  }

  /** Wraps {@code delegate}; closing this closes it only if {@code closeDelegate}. */
  public CountingBlobStore(BlobStore delegate, boolean closeDelegate) {
    this.delegate = delegate;
    this.closeDelegate = closeDelegate;
  }

  /** The wrapped store. */
  public BlobStore delegate() {
    return delegate;
  }

  /**
   * Blob counts.
   *
   * @param puts blobs written
   * @param bytesPut bytes written
   * @param opens blobs opened for reading
   * @param deletes blob delete requests
   */
  public record Counts(long puts, long bytesPut, long opens, long deletes) {
    /** The counts accumulated since {@code earlier}. */
    public Counts minus(Counts earlier) {
      return new Counts(
          puts - earlier.puts,
          bytesPut - earlier.bytesPut,
          opens - earlier.opens,
          deletes - earlier.deletes);
    }
  }

  /** The counts so far. */
  public Counts counts() {
    return new Counts(puts.sum(), bytesPut.sum(), opens.sum(), deletes.sum());
  }

  @Override
  public void put(String key, InputStream data, long length) {
    delegate.put(key, data, length);
    puts.increment();
    bytesPut.add(length);
  }

  @Override
  public Optional<InputStream> open(String key) {
    opens.increment();
    return delegate.open(key);
  }

  @Override
  public void delete(String key) {
    deletes.increment();
    delegate.delete(key);
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    deletes.add(keys.size());
    delegate.deleteAll(keys);
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    return delegate.list(prefix);
  }

  @Override
  public void close() {
    if (closeDelegate) {
      delegate.close();
    }
  }
}
