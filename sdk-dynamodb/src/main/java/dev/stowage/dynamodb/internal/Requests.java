package dev.stowage.dynamodb.internal;

/**
 * Request parameters sent only when they differ from DynamoDB's defaults: every parameter is
 * serialised into the request and parsed by the service, so a request says no more than it needs (a
 * default read is eventually consistent, a query reads forward, a write returns nothing).
 */
final class Requests {
  private Requests() {}

  /** {@code TRUE} when set, null (not sent: DynamoDB's default, false) otherwise. */
  static Boolean flag(boolean set) {
    return set ? Boolean.TRUE : null;
  }

  /**
   * {@code FALSE} for a descending read, null (not sent: forward, DynamoDB's default) otherwise.
   */
  static Boolean forward(boolean descending) {
    return descending ? Boolean.FALSE : null;
  }
}
