package dev.stowage.dynamodb.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ItemCollectionSizeLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;
import software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException;

/** Translates AWS SDK exceptions into Stowage's exception types, keeping the native cause. */
public final class Errors {
  private Errors() {}

  /**
   * The Stowage exception for a native failure of {@code operation} on {@code table}.
   *
   * @param what a short description such as {@code "PutItem on orders"}
   */
  public static StowageException translate(String what, SdkException e) {
    String msg = what + ": " + nativeMessage(e);
    if (e instanceof ConditionalCheckFailedException) {
      return new ConditionFailedException(msg, e);
    }
    if (e instanceof TransactionCanceledException tce) {
      return cancelled(what, tce);
    }
    if (e instanceof ProvisionedThroughputExceededException
        || e instanceof RequestLimitExceededException
        || e instanceof ThrottlingException) {
      return Throttles.translate(msg, (AwsServiceException) e);
    }
    if (e instanceof ResourceNotFoundException) {
      return new NotFoundException(msg, e);
    }
    if (e instanceof TransactionConflictException || e instanceof TransactionInProgressException) {
      return new ConflictException(msg, e);
    }
    if (e instanceof ItemCollectionSizeLimitExceededException) {
      return new InvalidRequestException(msg, e);
    }
    if (e instanceof AwsServiceException ase) {
      String code = ase.awsErrorDetails() == null ? null : ase.awsErrorDetails().errorCode();
      if (ase.isThrottlingException()
          || "ThrottlingException".equals(code)
          || "ThrottlingError".equals(code)) {
        return Throttles.translate(msg, ase);
      }
      if (ase.statusCode() >= 500) {
        return new UnavailableException(msg, e);
      }
      if (isItemTooLarge(ase.getMessage())) {
        return new ItemTooLargeException(
            msg + " (an item, or an index key synthesized from its attributes, is too large)", e);
      }
      return new InvalidRequestException(msg, e);
    }
    if (e instanceof SdkClientException) {
      return new UnavailableException(msg, e);
    }
    return new UnavailableException(msg, e);
  }

  /** Translates a cancelled transaction by its most telling cancellation reason. */
  static StowageException cancelled(String what, TransactionCanceledException e) {
    List<CancellationReason> reasons =
        e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
    String msg = what + ": transaction cancelled, reasons " + describe(reasons);
    boolean conflict = false;
    boolean throttled = false;
    for (int i = 0; i < reasons.size(); i++) {
      String code = reasons.get(i).code();
      if ("ConditionalCheckFailed".equals(code)) {
        return new ConditionFailedException(
            what + ": condition of operation " + i + " failed; " + msg, e);
      }
      if ("TransactionConflict".equals(code)) {
        conflict = true;
      } else if ("ProvisionedThroughputExceeded".equals(code)
          || "ThrottlingError".equals(code)
          || "RequestLimitExceeded".equals(code)) {
        throttled = true;
      } else if ("ValidationError".equals(code)) {
        String m = reasons.get(i).message();
        return isItemTooLarge(m)
            ? new ItemTooLargeException(msg, e)
            : new InvalidRequestException(msg, e);
      } else if ("ItemCollectionSizeLimitExceeded".equals(code)) {
        return new InvalidRequestException(msg, e);
      }
    }
    if (throttled) {
      return new ThrottledException(msg, e);
    }
    if (conflict) {
      return new ConflictException(msg, e);
    }
    return new ConflictException(msg, e);
  }

  private static String describe(List<CancellationReason> reasons) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < reasons.size(); i++) {
      CancellationReason r = reasons.get(i);
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(r.code());
      if (r.message() != null && !"None".equals(r.code())) {
        sb.append(" (").append(r.message()).append(')');
      }
    }
    return sb.append(']').toString();
  }

  /**
   * True for DynamoDB's validation messages about sizes: the 400 KB item limit ("Item size has
   * exceeded the maximum allowed size") and the key limits a GSI key can break ("Aggregated size of
   * all range keys has exceeded the size limit of 1024 bytes", "Hash primary key values must be
   * under 2048 bytes", DynamoDB Local's "Size limit exceeded"). The table's own keys are checked by
   * the core before anything is sent, so a key size error here concerns an index key.
   */
  static boolean isItemTooLarge(String message) {
    if (message == null) {
      return false;
    }
    String m = message.toLowerCase(Locale.ROOT);
    return (m.contains("item size") && (m.contains("exceeded") || m.contains("maximum")))
        || m.contains("size limit")
        || (m.contains("must be under") && m.contains("bytes"));
  }

  private static String nativeMessage(SdkException e) {
    if (e instanceof AwsServiceException ase && ase.awsErrorDetails() != null) {
      String code = ase.awsErrorDetails().errorCode();
      String m = ase.awsErrorDetails().errorMessage();
      return (code == null ? "" : code + ": ") + (m == null ? ase.getMessage() : m);
    }
    return e.getMessage();
  }
}
