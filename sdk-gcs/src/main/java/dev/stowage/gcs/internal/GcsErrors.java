package dev.stowage.gcs.internal;

import com.google.cloud.BaseServiceException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.util.Locale;

/**
 * Translates Cloud Storage client exceptions into Stowage exceptions, keeping the cause. The JSON
 * transport reports the HTTP status as the code and a reason; both are consulted. Stateless and
 * thread-safe.
 */
public final class GcsErrors {
  private GcsErrors() {}

  /** The Stowage exception for a failed {@code what}. */
  public static StowageException translate(String what, BaseServiceException e) {
    String reason = e.getReason() == null ? "" : e.getReason().toUpperCase(Locale.ROOT);
    String text = what + " failed: " + (e.getMessage() == null ? "" : e.getMessage());
    int code = e.getCode();
    if (reason.equals("ABORTED") || code == 409) {
      return new ConflictException(text, e);
    }
    if (reason.equals("RESOURCE_EXHAUSTED") || reason.equals("RATELIMITEXCEEDED") || code == 429) {
      return new ThrottledException(text, e);
    }
    if (code == 500
        || code == 502
        || code == 503
        || code == 504
        || reason.equals("UNAVAILABLE")
        || reason.equals("DEADLINE_EXCEEDED")
        || code == 0 && e.getCause() instanceof java.io.IOException) {
      return new UnavailableException(text, e);
    }
    if (reason.equals("NOT_FOUND") || reason.equals("NOTFOUND") || code == 404) {
      return new NotFoundException(text, e);
    }
    if (e.isRetryable()) {
      return new UnavailableException(text, e);
    }
    return new InvalidRequestException(text, e);
  }
}
