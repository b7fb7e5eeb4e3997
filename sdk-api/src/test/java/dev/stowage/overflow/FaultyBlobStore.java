package dev.stowage.overflow;

import dev.stowage.UnavailableException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Wraps a blob store and fails chosen operations: the next call, the next n calls, or every call,
 * either before the delegate runs ("down", "throttled") or after it ran ("crash after the effect").
 * Streams and listings can also fail part-way: a read stream after some bytes, a listing after some
 * entries.
 */
public final class FaultyBlobStore implements BlobStore {
  /** The operations that can fail. */
  public enum Op {
    PUT,
    OPEN,
    DELETE,
    LIST
  }

  /** When a failure fires relative to the delegate call. */
  public enum When {
    BEFORE,
    AFTER
  }

  private record Fault(When when, Supplier<RuntimeException> error, AtomicInteger remaining) {}

  private final BlobStore delegate;
  private final Map<Op, Fault> faults = new ConcurrentHashMap<>();
  private final Map<Op, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final AtomicInteger brokenReads = new AtomicInteger();
  private volatile int readBreaksAfter;
  private final AtomicInteger brokenListings = new AtomicInteger();
  private volatile int listingBreaksAfter;

  public FaultyBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  /** Fails the next {@code times} calls of {@code op} (Integer.MAX_VALUE: always). */
  public FaultyBlobStore fail(Op op, When when, int times, Supplier<RuntimeException> error) {
    faults.put(op, new Fault(when, error, new AtomicInteger(times)));
    return this;
  }

  /**
   * The next {@code times} streams that {@code open} returns throw an {@link IOException} once
   * {@code afterBytes} bytes have been read from them.
   */
  public FaultyBlobStore breakReads(int times, int afterBytes) {
    readBreaksAfter = afterBytes;
    brokenReads.set(times);
    return this;
  }

  /**
   * The next {@code times} listings throw an {@link UnavailableException} once {@code afterEntries}
   * entries have been taken from them (a page request failing mid-listing).
   */
  public FaultyBlobStore breakListings(int times, int afterEntries) {
    listingBreaksAfter = afterEntries;
    brokenListings.set(times);
    return this;
  }

  /** Removes every planned failure. */
  public FaultyBlobStore heal() {
    faults.clear();
    brokenReads.set(0);
    brokenListings.set(0);
    return this;
  }

  /** Calls of {@code op} so far, failed ones included. */
  public int calls(Op op) {
    return calls.computeIfAbsent(op, o -> new AtomicInteger()).get();
  }

  private void maybeFail(Op op, When when) {
    Fault f = faults.get(op);
    if (f != null && f.when() == when && f.remaining().getAndDecrement() > 0) {
      throw f.error().get();
    }
  }

  private <T> T run(Op op, Supplier<T> action) {
    calls.computeIfAbsent(op, o -> new AtomicInteger()).incrementAndGet();
    maybeFail(op, When.BEFORE);
    T result = action.get();
    maybeFail(op, When.AFTER);
    return result;
  }

  @Override
  public void put(String key, InputStream data, long length) {
    run(
        Op.PUT,
        () -> {
          delegate.put(key, data, length);
          return null;
        });
  }

  @Override
  public Optional<InputStream> open(String key) {
    Optional<InputStream> opened = run(Op.OPEN, () -> delegate.open(key));
    if (opened.isPresent() && brokenReads.getAndDecrement() > 0) {
      return Optional.of(new BreakingStream(opened.get(), readBreaksAfter));
    }
    return opened;
  }

  @Override
  public void delete(String key) {
    run(
        Op.DELETE,
        () -> {
          delegate.delete(key);
          return null;
        });
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    Stream<BlobInfo> listed = run(Op.LIST, () -> delegate.list(prefix));
    if (brokenListings.getAndDecrement() > 0) {
      int after = listingBreaksAfter;
      AtomicInteger taken = new AtomicInteger();
      return listed.peek(
          b -> {
            if (taken.incrementAndGet() > after) {
              throw new UnavailableException("listing page request failed");
            }
          });
    }
    return listed;
  }

  /** A stream that fails with an I/O error after a number of bytes. */
  private static final class BreakingStream extends FilterInputStream {
    private long left;

    BreakingStream(InputStream in, long breakAfter) {
      super(in);
      this.left = breakAfter;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        throw new IOException("connection reset while reading");
      }
      int b = super.read();
      left--;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left <= 0) {
        throw new IOException("connection reset while reading");
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }
}
