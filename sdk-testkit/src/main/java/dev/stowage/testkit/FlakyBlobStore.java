package dev.stowage.testkit;

import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import dev.stowage.overflow.BlobStore;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A blob store in front of a real one that fails the first two calls of each operation on each key
 * with a transient error, the first before the call reached the store and the second after it took
 * effect; the first stream it hands out for a key breaks part-way, and the second listing of a
 * prefix fails after its first entry. A store that retries under its policy must never notice.
 * Failures are planned per key, so they do not depend on how concurrent calls interleave.
 */
final class FlakyBlobStore implements BlobStore {
  private final BlobStore delegate;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final AtomicInteger failures = new AtomicInteger();

  FlakyBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  /** How many transient failures were injected so far. */
  int failures() {
    return failures.get();
  }

  /** The how-many-th call of {@code op} on {@code key} this is, from 1. */
  private int call(String op, String key) {
    return calls.computeIfAbsent(op + " " + key, k -> new AtomicInteger()).incrementAndGet();
  }

  /** 0: no failure; 1: fail before the call; 2: fail after it. */
  private int plan(String op, String key) {
    int n = call(op, key);
    if (n > 2) {
      return 0;
    }
    failures.incrementAndGet();
    return n;
  }

  private static RuntimeException before() {
    return new UnavailableException("injected: connection refused before the request");
  }

  private static RuntimeException after() {
    return new ThrottledException(
        "injected: SlowDown after the request took effect", Duration.ofMinutes(10), null);
  }

  @Override
  public void put(String key, InputStream data, long length) {
    int p = plan("put", key);
    if (p == 1) {
      throw before();
    }
    delegate.put(key, data, length);
    if (p == 2) {
      throw after();
    }
  }

  @Override
  public Optional<InputStream> open(String key) {
    int p = plan("open", key);
    if (p == 1) {
      throw before();
    }
    Optional<InputStream> in = delegate.open(key);
    if (p == 2) {
      in.ifPresent(FlakyBlobStore::closeQuietly);
      throw after();
    }
    if (in.isPresent() && call("read", key) == 1) {
      failures.incrementAndGet();
      return Optional.of(new BreaksAfter(in.get(), 7));
    }
    return in;
  }

  @Override
  public void delete(String key) {
    int p = plan("delete", key);
    if (p == 1) {
      throw before();
    }
    delegate.delete(key);
    if (p == 2) {
      throw after();
    }
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    int p = plan("deleteAll", String.join(",", keys));
    if (p == 1) {
      throw before();
    }
    delegate.deleteAll(keys);
    if (p == 2) {
      throw after();
    }
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    int p = plan("list", prefix);
    if (p == 1) {
      throw before();
    }
    Stream<BlobInfo> listed = delegate.list(prefix);
    if (p == 2) {
      AtomicInteger taken = new AtomicInteger();
      return listed.peek(
          b -> {
            if (taken.incrementAndGet() > 1) {
              throw new UnavailableException("injected: listing page request failed");
            }
          });
    }
    return listed;
  }

  /** The fixture closes the real store. */
  @Override
  public void close() {}

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // only releasing the connection of a stream nobody reads
    }
  }

  /** A stream that fails with an I/O error after some bytes, as a dropped connection would. */
  private static final class BreaksAfter extends FilterInputStream {
    private long left;

    BreaksAfter(InputStream in, long bytes) {
      super(in);
      this.left = bytes;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        throw new IOException("injected: connection reset while reading");
      }
      left--;
      return super.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        throw new IOException("injected: connection reset while reading");
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }
}
