package dev.stowage.azure.internal;

import com.azure.core.exception.HttpResponseException;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionFailedException;
import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/** Translates Azure Tables SDK errors into Stowage exceptions, keeping the cause. */
public final class AzureErrors {
  private AzureErrors() {}

  /**
   * The HTTP status of an Azure error, or 0 when there was no response. A failed transaction
   * carries no response of its own; its status is derived from the failed action's error code.
   */
  public static int status(Throwable e) {
    if (e instanceof TableTransactionFailedException) {
      return switch (code(e)) {
        case "EntityAlreadyExists", "TableBeingDeleted" -> 409;
        case "UpdateConditionNotSatisfied", "ConditionNotMet" -> 412;
        case "ResourceNotFound", "TableNotFound", "EntityNotFound" -> 404;
        case "ServerBusy" -> 503;
        case "OperationTimedOut", "InternalError" -> 500;
        case "RequestBodyTooLarge" -> 413;
        default -> 400;
      };
    }
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      return h.getResponse().getStatusCode();
    }
    return 0;
  }

  /** The Azure error code ({@code ServerBusy}, {@code EntityAlreadyExists}, …) or "". */
  public static String code(Throwable e) {
    if (e instanceof TableServiceException t
        && t.getValue() != null
        && t.getValue().getErrorCode() != null) {
      return t.getValue().getErrorCode().toString();
    }
    if (e instanceof HttpResponseException h && h.getResponse() != null) {
      String header = h.getResponse().getHeaderValue("x-ms-error-code");
      if (header != null) {
        return header;
      }
    }
    return "";
  }

  /**
   * Translates {@code e}, raised while doing {@code what}. A 409 becomes a condition failure only
   * where the caller passes it as a create conflict; elsewhere it is a {@link ConflictException}.
   */
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
      ThrottledException.Details d = throttle(e);
      return new ThrottledException(message + " — " + d.describe(), retryAfter(e), d, e);
    }
    if (status >= 500 || status == 408) {
      return new UnavailableException(message, e);
    }
    if (status == 412 || code.equals("UpdateConditionNotSatisfied")) {
      return new ConditionFailedException(message + ": the stored version changed", e);
    }
    if (code.equals("EntityAlreadyExists")) {
      return new ConditionFailedException(message + ": the item already exists", e);
    }
    if (code.equals("TableBeingDeleted") || code.equals("ContainerBeingDeleted")) {
      return new UnavailableException(message + ": the table is still being deleted", e);
    }
    if (status == 409) {
      return new ConflictException(message, e);
    }
    if (code.equals("PropertyValueTooLarge")
        || code.equals("EntityTooLarge")
        || code.equals("RequestBodyTooLarge")
        || code.equals("TooManyProperties")
        || status == 413) {
      return new ItemTooLargeException(message + ": " + firstLine(e), e);
    }
    if (status == 404) {
      return new NotFoundException(message + ": " + firstLine(e), e);
    }
    return new InvalidRequestException(message + ": " + firstLine(e), e);
  }

  /**
   * What a ServerBusy says: "Ingress/Egress/Operations per second is over the account limit" is the
   * account's scalability target; any other (the usual "The server is currently unable to receive
   * requests") is the partition's, the one partition server a PartitionKey range lives on.
   */
  static ThrottledException.Details throttle(Throwable e) {
    String text = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
    String code = code(e);
    String said = code.isEmpty() ? "503" : code;
    if (text.contains("account limit")) {
      ThrottledException.Access access =
          text.contains("ingress")
              ? ThrottledException.Access.WRITE
              : text.contains("egress")
                  ? ThrottledException.Access.READ
                  : ThrottledException.Access.UNKNOWN;
      return new ThrottledException.Details(
          ThrottledException.Reason.ACCOUNT_LIMIT, access, "account", null, null, said);
    }
    return new ThrottledException.Details(
        ThrottledException.Reason.HOT_PARTITION,
        ThrottledException.Access.UNKNOWN,
        "partition",
        null,
        null,
        said);
  }

  /**
   * Runs one driver call, turning a {@link LinkageError} from the SDK into a Stowage exception. The
   * SDK loads some libraries by reflection only when a response needs them (Jackson's XML module
   * for the XML error bodies the storage front end sends); when one is missing or of another
   * version the call fails with a LinkageError, which must not escape a Stowage call. The request's
   * outcome is unknown (the response that could not be read may follow an applied write), so it
   * becomes an {@link UnavailableException}, which the core settles like a timeout.
   */
  public static <T> T guard(String what, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (LinkageError e) {
      throw linkage(e, what);
    }
  }

  /** {@link #guard(String, java.util.function.Supplier)} for a call with no result. */
  public static void guard(String what, Runnable call) {
    try {
      call.run();
    } catch (LinkageError e) {
      throw linkage(e, what);
    }
  }

  private static UnavailableException linkage(LinkageError e, String what) {
    return new UnavailableException(
        what
            + " failed on Azure: the Azure SDK could not read the service's response ("
            + e
            + "); a library it loads at run time is missing from the class path or of another"
            + " version (the service's XML error bodies need com.fasterxml.jackson.dataformat:"
            + "jackson-dataformat-xml at the version of jackson-databind)",
        e);
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
