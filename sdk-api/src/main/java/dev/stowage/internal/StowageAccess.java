package dev.stowage.internal;

import dev.stowage.Stowage;
import java.util.Objects;
import java.util.function.Function;

/**
 * Lets Stowage's own exporters (the Micrometer binding) reach a store's {@link Metrics}, which the
 * public API shows only as snapshots. Not API.
 */
public final class StowageAccess {
  private static Function<Stowage, Metrics> accessor;

  private StowageAccess() {}

  /**
   * Called once, by {@link Stowage}'s class initialiser (a caller holding a store finds it
   * installed).
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Function<Stowage, Metrics> a) {
    if (accessor != null) {
      throw new IllegalStateException("the Stowage accessor is already installed");
    }
    accessor = Objects.requireNonNull(a, "accessor");
  }

  /** The live counters behind {@code store.metrics()}. */
  public static synchronized Metrics metrics(Stowage store) {
    return accessor.apply(Objects.requireNonNull(store, "store"));
  }
}
