package dev.stowage;

/**
 * The backend cannot do what was asked, and Stowage does not fake it: for example a transaction
 * across partitions on Azure Table Storage. {@link #capability()} names the missing capability; the
 * message says why the backend lacks it.
 */
public final class UnsupportedCapabilityException extends StowageException {
  private static final long serialVersionUID = 1L;
  private final String capability;

  /** Creates the exception for the named capability, with the reason the backend lacks it. */
  public UnsupportedCapabilityException(String capability, String reason) {
    super(capability + " is not supported: " + reason, null);
    this.capability = capability;
  }

  /** The capability that is missing, for example {@code CROSS_PARTITION_TRANSACTIONS}. */
  public String capability() {
    return capability;
  }

  /** Always {@code false}. */
  @Override
  public boolean retryable() {
    return false;
  }
}
