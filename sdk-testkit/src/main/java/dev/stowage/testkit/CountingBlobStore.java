package dev.stowage.testkit;

import dev.stowage.overflow.BlobStore;
import java.io.InputStream;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/** A blob store that counts the reads and writes it passes on, for overflow contracts. */
final class CountingBlobStore implements BlobStore {
  private final BlobStore delegate;
  final AtomicInteger opens = new AtomicInteger();
  final AtomicInteger puts = new AtomicInteger();

  CountingBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public void put(String key, InputStream data, long length) {
    puts.incrementAndGet();
    delegate.put(key, data, length);
  }

  @Override
  public Optional<InputStream> open(String key) {
    opens.incrementAndGet();
    return delegate.open(key);
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    return delegate.list(prefix);
  }

  /** The shared store stays open: the fixture closes it. */
  @Override
  public void close() {}
}
