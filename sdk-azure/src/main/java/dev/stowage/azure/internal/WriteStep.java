package dev.stowage.azure.internal;

/**
 * The steps of a write to an item of a table with indexes, in the order the driver performs them. A
 * {@link Hook} sees each step complete; tests use it to simulate a crash between steps.
 */
public enum WriteStep {
  /** The index entries for the new item version were written. */
  NEW_ENTRIES_WRITTEN,
  /** The item (and its mirror row) was written or deleted. */
  ITEM_WRITTEN,
  /** The entries of the replaced version were deleted. */
  STALE_ENTRIES_DELETED;

  /** Observes completed steps; may throw to abort the write at that point. */
  @FunctionalInterface
  public interface Hook {
    /** Does nothing. */
    Hook NONE = step -> {};

    /** Called after {@code step} completed. */
    void after(WriteStep step);
  }
}
