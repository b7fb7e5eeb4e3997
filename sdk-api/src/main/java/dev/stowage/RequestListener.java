package dev.stowage;

import java.time.Duration;
import java.util.Objects;

/**
 * Receives one event per request a store sends to its backend (driver) or its blob store, for
 * latency and traffic metrics: see {@code dev.stowage.micrometer.MicrometerMetrics} for a
 * Micrometer binding. Set with {@link Stowage.Builder#requestListener}.
 *
 * <p>Events describe what reached the backend: a call the core retried shows as several requests,
 * each with its own outcome. The listener is called on the thread that made the request, after it
 * returned or failed (for a blob read: when the caller closes the blob's stream); it must be
 * thread-safe and fast. An exception it throws is logged and otherwise ignored: metrics never fail
 * a write.
 */
@FunctionalInterface
public interface RequestListener {
  /** Called after every request. */
  void onRequest(Request request);

  /** What a request went to. */
  enum Target {
    /** The driver: items, queries, tables. */
    TABLE,
    /** The blob store: overflow blobs. */
    BLOB
  }

  /** How a request ended. */
  enum Outcome {
    /** It succeeded. */
    OK,
    /** The backend throttled it ({@link ThrottledException}). */
    THROTTLED,
    /** The backend was unreachable or failed ({@link UnavailableException}). */
    UNAVAILABLE,
    /** Its condition or expectation failed ({@link ConditionFailedException}). */
    CONDITION_FAILED,
    /** Any other error. */
    ERROR;

    /** The outcome of a request that threw {@code error} (null: {@link #OK}). */
    public static Outcome of(Throwable error) {
      if (error == null) {
        return OK;
      }
      if (error instanceof ThrottledException) {
        return THROTTLED;
      }
      if (error instanceof UnavailableException) {
        return UNAVAILABLE;
      }
      if (error instanceof ConditionFailedException) {
        return CONDITION_FAILED;
      }
      return ERROR;
    }
  }

  /**
   * One request.
   *
   * @param backend the driver's name, for example {@code dynamodb} (blob requests carry the name of
   *     the store's driver too)
   * @param target the driver or the blob store
   * @param operation the driver or blob store method, for example {@code get}, {@code batchWrite},
   *     {@code query}; {@code put}, {@code open}, {@code delete}, {@code deleteAll}, {@code list}
   *     for blobs
   * @param namespace the table's namespace ({@code ""} for the root namespace, or when unknown)
   * @param table the logical table name ({@code ""} when unknown: transactions over several tables,
   *     blob keys outside Stowage's layout)
   * @param duration how long the request took
   * @param bytesWritten bytes sent: items put, as the backend's size model counts them, or blob
   *     bytes
   * @param bytesRead bytes received: items returned, as the backend's size model counts them, or
   *     blob bytes read by the caller
   * @param outcome how it ended
   */
  record Request(
      String backend,
      Target target,
      String operation,
      String namespace,
      String table,
      Duration duration,
      long bytesWritten,
      long bytesRead,
      Outcome outcome) {
    public Request {
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(table, "table");
      Objects.requireNonNull(duration, "duration");
      Objects.requireNonNull(outcome, "outcome");
    }
  }
}
