package dev.stowage.internal;

import dev.stowage.RequestListener;
import dev.stowage.RequestListener.Outcome;
import dev.stowage.RequestListener.Target;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Times a request and reports it to a {@link RequestListener}, shared by the observed driver and
 * blob store. A listener that throws is logged, never propagated. Thread-safe.
 */
final class Observed {
  private static final Logger LOG = LoggerFactory.getLogger(RequestListener.class);

  private final RequestListener listener;
  private final String backend;
  private final Target target;

  Observed(RequestListener listener, String backend, Target target) {
    this.listener = listener;
    this.backend = backend;
    this.target = target;
  }

  /**
   * Runs {@code call} and reports it.
   *
   * @param written bytes sent, computed from the result (called only on success)
   * @param read bytes received, computed from the result (called only on success)
   */
  <T> T call(
      String operation,
      String namespace,
      String table,
      Supplier<T> call,
      ToLongFunction<T> written,
      ToLongFunction<T> read) {
    long start = System.nanoTime();
    T result;
    try {
      result = call.get();
    } catch (RuntimeException | Error e) {
      report(operation, namespace, table, start, 0, 0, e);
      throw e;
    }
    report(
        operation,
        namespace,
        table,
        start,
        written.applyAsLong(result),
        read.applyAsLong(result),
        null);
    return result;
  }

  /** Runs {@code call}, which sends {@code written} bytes and reads none, and reports it. */
  void run(String operation, String namespace, String table, long written, Runnable call) {
    call(
        operation,
        namespace,
        table,
        () -> {
          call.run();
          return null;
        },
        r -> written,
        r -> 0);
  }

  /** Reports a request that started at {@code startNanos} and has ended. */
  void report(
      String operation,
      String namespace,
      String table,
      long startNanos,
      long written,
      long read,
      Throwable error) {
    try {
      listener.onRequest(
          new RequestListener.Request(
              backend,
              target,
              operation,
              namespace,
              table,
              Duration.ofNanos(System.nanoTime() - startNanos),
              written,
              read,
              Outcome.of(error)));
    } catch (RuntimeException e) {
      LOG.warn("request listener failed on {} {} of table '{}'", target, operation, table, e);
    }
  }
}
