package dev.stowage;

import dev.stowage.item.AttributeValue;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The backend refused the request because of its rate or capacity limits (DynamoDB throughput and
 * request limits, Datastore RESOURCE_EXHAUSTED, Azure 503 ServerBusy). Retryable; the core retries
 * it with backoff, honouring {@link #retryAfter()} when the backend gave a hint, but never waiting
 * longer than the policy's {@link RetryPolicy#maxDelay()} at a time. The one that reaches the
 * application says how many attempts were made over how long, and keeps the backend's cause and
 * last hint.
 *
 * <p>It also says why, as far as the backend told: {@link #reason()} (a hot partition, the capacity
 * provisioned, an account limit, an on-demand maximum, or a busy server), the {@link #resource()}
 * the backend named, whether it was an {@link #index()}, whether reads or writes were refused
 * ({@link #access()}) and, for single-item requests, the {@link #partitionKey()} asked for. The
 * message ends with what to do about it ({@link Reason#advice()}). docs/metrics.md lists how each
 * backend's errors map to these reasons.
 */
public final class ThrottledException extends StowageException {
  private static final long serialVersionUID = 1L;
  private final transient Duration retryAfter;
  private final transient Details details;

  /** Creates the exception without a retry hint or details. */
  public ThrottledException(String message, Throwable cause) {
    this(message, null, cause);
  }

  /** Creates the exception with the backend's retry-after hint (may be null), without details. */
  public ThrottledException(String message, Duration retryAfter, Throwable cause) {
    this(message, retryAfter, Details.UNKNOWN, cause);
  }

  /**
   * Creates the exception with the backend's retry-after hint (may be null) and what the backend
   * said about the throttling. The message is used as given; drivers append {@link
   * Details#describe()}.
   */
  public ThrottledException(String message, Duration retryAfter, Details details, Throwable cause) {
    super(message, cause);
    this.retryAfter = retryAfter;
    this.details = Objects.requireNonNull(details, "details");
  }

  /** How long the backend asked us to wait, when it said. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /** What the backend said about the throttling ({@link Details#UNKNOWN} when nothing). */
  public Details details() {
    return details == null ? Details.UNKNOWN : details;
  }

  /** Why the request was throttled, as far as the backend said. */
  public Reason reason() {
    return details().reason();
  }

  /** Whether reads or writes were refused. */
  public Access access() {
    return details().access();
  }

  /**
   * The resource the backend named: a DynamoDB table or index ARN, an Azure partition or account;
   * empty when it named none.
   */
  public Optional<String> resource() {
    return Optional.ofNullable(details().resource());
  }

  /**
   * The index that was throttled (a DynamoDB GSI, by the name Stowage gave it); empty: the table.
   */
  public Optional<String> index() {
    return Optional.ofNullable(details().index());
  }

  /** The partition key of the single-item request that was throttled; empty for other requests. */
  public Optional<AttributeValue> partitionKey() {
    return Optional.ofNullable(details().partitionKey());
  }

  /** Always {@code true}. */
  @Override
  public boolean retryable() {
    return true;
  }

  /** Why a backend throttled a request. */
  public enum Reason {
    /**
     * One partition (a key range) took more than a partition serves, though the table as a whole
     * did not: a hot key. DynamoDB {@code …KeyRangeThroughputExceeded}; Azure {@code ServerBusy}
     * that names the partition.
     */
    HOT_PARTITION(
        "a hot partition: spread the load over more partition keys (write sharding: a suffix"
            + " on hot keys), cache hot reads; more capacity does not help a single partition"),
    /**
     * The table or index used the throughput provisioned for it. DynamoDB {@code
     * …ProvisionedThroughputExceeded}.
     */
    PROVISIONED_CAPACITY(
        "the provisioned capacity is used up: raise the table's or index's read or write capacity"
            + " (or its auto-scaling maximum), or switch to on-demand"),
    /**
     * The maximum throughput configured for an on-demand table or index. DynamoDB {@code
     * …MaxOnDemandThroughputExceeded}.
     */
    ON_DEMAND_MAXIMUM(
        "the on-demand maximum configured for the table or index is reached: raise"
            + " MaxReadRequestUnits/MaxWriteRequestUnits"),
    /**
     * A limit of the account or project: DynamoDB {@code …AccountLimitExceeded} and {@code
     * RequestLimitExceeded}, Azure {@code ServerBusy} for the account's scalability target,
     * Datastore {@code RESOURCE_EXHAUSTED} quota errors.
     */
    ACCOUNT_LIMIT(
        "an account or project limit is reached: request a quota increase, or spread the"
            + " tables over accounts"),
    /**
     * The service is busy or rebalancing and said no more: Azure {@code ServerBusy} without a scope
     * and {@code OperationTimedOut}, Datastore {@code RESOURCE_EXHAUSTED} without a quota, DynamoDB
     * {@code ThrottlingException} on control-plane calls.
     */
    SERVER_BUSY(
        "the service is busy: back off and ramp traffic up gradually (500/50/5: start at 500"
            + " operations per second and grow by half every 5 minutes)"),
    /** The backend did not say. */
    UNKNOWN("back off and retry; enable adaptive rate limiting to slow down under throttling");

    private final String advice;

    Reason(String advice) {
      this.advice = advice;
    }

    /** What to do about it, in a sentence. */
    public String advice() {
      return advice;
    }

    /** The name in lower case, as metrics tag it ({@code hot_partition}, …). */
    public String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Whether the backend refused reads or writes. */
  public enum Access {
    /** Reads (gets, queries, scans). */
    READ,
    /** Writes. */
    WRITE,
    /** Not said. */
    UNKNOWN
  }

  /**
   * What the backend said about a throttling. Immutable.
   *
   * @param reason why, never null
   * @param access reads or writes, never null
   * @param resource the resource the backend named (an ARN, a partition or account), or null
   * @param index the index throttled, or null for the table or when unknown
   * @param partitionKey the partition key of the request, or null when it concerned several keys
   * @param all every reason the backend gave, as it spelt them ({@code
   *     TableWriteKeyRangeThroughputExceeded}, {@code ServerBusy}, …), or "" when none
   */
  public record Details(
      Reason reason,
      Access access,
      String resource,
      String index,
      AttributeValue partitionKey,
      String all) {
    /** Nothing known. */
    public static final Details UNKNOWN =
        new Details(Reason.UNKNOWN, Access.UNKNOWN, null, null, null, "");

    /** Checks the required fields. */
    public Details {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(access, "access");
      all = all == null ? "" : all;
    }

    /** The same details with {@code access} if this says none. */
    public Details orAccess(Access access) {
      return this.access != Access.UNKNOWN
          ? this
          : new Details(reason, access, resource, index, partitionKey, all);
    }

    /** The same details with the request's partition key. */
    public Details withPartitionKey(AttributeValue key) {
      return new Details(reason, access, resource, index, key, all);
    }

    /**
     * A sentence for messages: the reason, where, and what to do, for example {@code "throttled: a
     * hot partition (writes to index 'byUser', partition key "u1"): spread the load …"}.
     */
    public String describe() {
      StringBuilder sb = new StringBuilder("throttled");
      String where =
          (access == Access.UNKNOWN ? "" : access == Access.READ ? "reads" : "writes")
              + (index != null
                  ? (access == Access.UNKNOWN ? "" : " to ") + "index '" + index + "'"
                  : "")
              + (partitionKey != null ? ", partition key " + partitionKey : "");
      sb.append(" (").append(reason.tag());
      if (!where.isEmpty()) {
        sb.append("; ").append(where.startsWith(", ") ? where.substring(2) : where);
      }
      if (!all.isEmpty()) {
        sb.append("; backend said ").append(all);
      }
      return sb.append("): ").append(reason.advice()).toString();
    }
  }
}
