package dev.stowage.azure.blob.internal;

import com.azure.core.exception.HttpResponseException;
import com.azure.storage.blob.models.BlobStorageException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * Translates Azure Blob Storage errors into Stowage exceptions, keeping the cause. The same status
 * rules as the Azure Tables driver's translation, without the Tables SDK. Stateless and
 * thread-safe.
 */
public final class BlobErrors {
  private BlobErrors() {}

  /** The HTTP status of an Azure error, or 0 when there was no response. */
  public static int status(Throwable e) {
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      return h.getResponse().getStatusCode();
    }
    return 0;
  }

  /** The Azure error code ({@code ServerBusy}, {@code ContainerNotFound}, …) or "". */
  public static String code(Throwable e) {
    if (e instanceof BlobStorageException b && b.getErrorCode() != null) {
      return b.getErrorCode().toString();
    }
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      String header = h.getResponse().getHeaderValue("x-ms-error-code");
      if (header != null) {
        return header;
      }
    }
    return "";
  }

  /** Translates {@code e}, raised while doing {@code what}. */
  public static StowageException translate(RuntimeException e, String what) {
    if (e instanceof StowageException s) {
      return s;
    }
    int status = status(e);
    String code = code(e);
    String message = what + " failed on Azure (" + (status == 0 ? "" : status + " ") + code + ")";
    if (status == 0) {
      if (isIo(e)) {
        return new UnavailableException(message + ": " + e.getMessage(), e);
      }
      return new InvalidRequestException(message + ": " + e.getMessage(), e);
    }
    if (status == 503 || status == 429 || code.equals("ServerBusy")) {
      return new ThrottledException(message, retryAfter(e), e);
    }
    if (status >= 500 || status == 408) {
      return new UnavailableException(message, e);
    }
    if (code.equals("ContainerBeingDeleted")) {
      return new UnavailableException(message + ": the container is still being deleted", e);
    }
    if (status == 409 || status == 412) {
      return new ConflictException(message, e);
    }
    if (status == 404) {
      return new NotFoundException(message + ": " + firstLine(e), e);
    }
    return new InvalidRequestException(message + ": " + firstLine(e), e);
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static boolean isIo(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException
          || t instanceof UncheckedIOException
          || t instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  private static Duration retryAfter(Throwable e) {
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      String v = h.getResponse().getHeaderValue("Retry-After");
      if (v != null) {
        try {
          return Duration.ofSeconds(Long.parseLong(v.trim()));
        } catch (NumberFormatException ignored) {
          return null;
        }
      }
    }
    return null;
  }
}
