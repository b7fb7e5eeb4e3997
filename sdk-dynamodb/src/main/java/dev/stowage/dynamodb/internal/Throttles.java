package dev.stowage.dynamodb.internal;

import dev.stowage.ThrottledException;
import dev.stowage.ThrottledException.Access;
import dev.stowage.ThrottledException.Details;
import dev.stowage.ThrottledException.Reason;
import java.util.List;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.RequestLimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingReason;

/**
 * Reads DynamoDB's {@code ThrottlingReasons} (on {@code ProvisionedThroughputExceededException},
 * {@code RequestLimitExceeded} and {@code ThrottlingException}) into {@link Details}. A reason is
 * spelt {@code <Table|Index><Read|Write><limit>}, the limit one of {@code
 * KeyRangeThroughputExceeded} (a hot partition), {@code ProvisionedThroughputExceeded}, {@code
 * AccountLimitExceeded} and {@code MaxOnDemandThroughputExceeded}; its resource is the table's or
 * index's ARN ({@code arn:aws:dynamodb:…:table/T/index/I}). Stateless.
 */
final class Throttles {
  private Throttles() {}

  static ThrottledException translate(String msg, AwsServiceException e) {
    Details d = details(e);
    return new ThrottledException(msg + " — " + d.describe(), null, d, e);
  }

  static Details details(AwsServiceException e) {
    List<ThrottlingReason> reasons = reasons(e);
    if (reasons.isEmpty()) {
      // An older response, or DynamoDB Local: the exception type is all there is.
      if (e instanceof RequestLimitExceededException) {
        return new Details(Reason.ACCOUNT_LIMIT, Access.UNKNOWN, null, null, null, "");
      }
      if (e instanceof ProvisionedThroughputExceededException) {
        return new Details(Reason.PROVISIONED_CAPACITY, Access.UNKNOWN, null, null, null, "");
      }
      return Details.UNKNOWN;
    }
    StringBuilder all = new StringBuilder();
    for (ThrottlingReason r : reasons) {
      if (all.length() > 0) {
        all.append(", ");
      }
      all.append(r.reason());
    }
    // The first reason decides; the others stay in the message.
    ThrottlingReason first = reasons.get(0);
    String reason = first.reason() == null ? "" : first.reason();
    return new Details(
        reasonOf(reason),
        accessOf(reason),
        first.resource(),
        indexOf(first.resource()),
        null,
        all.toString());
  }

  private static List<ThrottlingReason> reasons(AwsServiceException e) {
    if (e instanceof ProvisionedThroughputExceededException p && p.hasThrottlingReasons()) {
      return p.throttlingReasons();
    }
    if (e instanceof RequestLimitExceededException r && r.hasThrottlingReasons()) {
      return r.throttlingReasons();
    }
    if (e instanceof ThrottlingException t && t.hasThrottlingReasons()) {
      return t.throttlingReasons();
    }
    return List.of();
  }

  static Reason reasonOf(String reason) {
    if (reason.endsWith("KeyRangeThroughputExceeded")) {
      return Reason.HOT_PARTITION;
    }
    if (reason.endsWith("MaxOnDemandThroughputExceeded")) {
      return Reason.ON_DEMAND_MAXIMUM;
    }
    if (reason.endsWith("ProvisionedThroughputExceeded")) {
      return Reason.PROVISIONED_CAPACITY;
    }
    if (reason.endsWith("AccountLimitExceeded")) {
      return Reason.ACCOUNT_LIMIT;
    }
    return Reason.UNKNOWN;
  }

  static Access accessOf(String reason) {
    String rest =
        reason.startsWith("Table")
            ? reason.substring(5)
            : reason.startsWith("Index") ? reason.substring(5) : reason;
    if (rest.startsWith("Read")) {
      return Access.READ;
    }
    if (rest.startsWith("Write")) {
      return Access.WRITE;
    }
    return Access.UNKNOWN;
  }

  /** The Stowage name of the index an ARN names, or null for a table. */
  static String indexOf(String arn) {
    if (arn == null) {
      return null;
    }
    int at = arn.indexOf("/index/");
    if (at < 0) {
      return null;
    }
    String physical = arn.substring(at + "/index/".length());
    String prefix = TableNames.indexName("");
    return physical.startsWith(prefix) ? physical.substring(prefix.length()) : physical;
  }
}
