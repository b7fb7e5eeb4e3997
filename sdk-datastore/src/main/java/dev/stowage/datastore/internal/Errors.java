package dev.stowage.datastore.internal;

import com.google.cloud.BaseServiceException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.util.Locale;

/**
 * Translates Datastore and Cloud Storage client exceptions into Stowage exceptions, keeping the
 * cause. The HTTP transport reports the canonical status name as the reason and the HTTP status as
 * the code; both are consulted. Stateless and thread-safe.
 */
public final class Errors {
  private Errors() {}

  /** The Stowage exception for a failed {@code what}. */
  public static StowageException translate(String what, BaseServiceException e) {
    String reason = e.getReason() == null ? "" : e.getReason().toUpperCase(Locale.ROOT);
    String message = e.getMessage() == null ? "" : e.getMessage();
    String text = what + " failed: " + message;
    int code = e.getCode();
    if (reason.equals("ABORTED") || code == 409 && !reason.equals("ALREADY_EXISTS")) {
      return new ConflictException(text, e);
    }
    if (reason.equals("RESOURCE_EXHAUSTED") || code == 429) {
      ThrottledException.Details d = throttle(message);
      return new ThrottledException(text + " — " + d.describe(), null, d, e);
    }
    if (reason.equals("UNAVAILABLE")
        || reason.equals("DEADLINE_EXCEEDED")
        || reason.equals("INTERNAL")
        || code == 503
        || code == 504
        || code == 500
        || code == 0 && e.getCause() instanceof java.io.IOException) {
      return new UnavailableException(text, e);
    }
    if (reason.equals("NOT_FOUND") || code == 404) {
      return new NotFoundException(text, e);
    }
    if (isSizeLimit(message)) {
      return new ItemTooLargeException(text, e);
    }
    if (e.isRetryable()) {
      return new UnavailableException(text, e);
    }
    return new InvalidRequestException(text, e);
  }

  /**
   * What a RESOURCE_EXHAUSTED says: a quota ("Quota exceeded", per-project limits) is the
   * project's; otherwise the service is shedding load, as when traffic to a new key range ramps up
   * faster than the 500/50/5 rule allows.
   */
  static ThrottledException.Details throttle(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    ThrottledException.Reason r =
        m.contains("quota")
            ? ThrottledException.Reason.ACCOUNT_LIMIT
            : ThrottledException.Reason.SERVER_BUSY;
    return new ThrottledException.Details(
        r, ThrottledException.Access.UNKNOWN, null, null, null, "RESOURCE_EXHAUSTED");
  }

  /** True for the messages Datastore gives when an entity, property or key is too large. */
  static boolean isSizeLimit(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    return m.contains("too big")
        || m.contains("too large")
        || m.contains("longer than")
        || m.contains("exceeds the maximum")
        || m.contains("maximum allowed size")
        || m.contains("bytes long");
  }
}
