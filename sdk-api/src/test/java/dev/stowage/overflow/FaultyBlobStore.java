package dev.stowage.overflow;

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

  public FaultyBlobStore(BlobStore delegate) {
    this.delegate = delegate;
  }

  /** Fails the next {@code times} calls of {@code op} (Integer.MAX_VALUE: always). */
  public FaultyBlobStore fail(Op op, When when, int times, Supplier<RuntimeException> error) {
    faults.put(op, new Fault(when, error, new AtomicInteger(times)));
    return this;
  }

  /** Removes every planned failure. */
  public FaultyBlobStore heal() {
    faults.clear();
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
    return run(Op.OPEN, () -> delegate.open(key));
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
    return run(Op.LIST, () -> delegate.list(prefix));
  }
}
