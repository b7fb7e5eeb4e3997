package dev.stowage.codec.internal;

import dev.stowage.codec.KeyProvider;
import java.util.Objects;
import java.util.function.Function;

/**
 * Lets Stowage's core reach the {@link KeyRing} behind a {@link KeyProvider}, to seal cursors with
 * the store's codec keyset. Not API.
 */
public final class KeyRings {
  private static Function<KeyProvider, KeyRing> accessor;

  private KeyRings() {}

  /**
   * Called once, by {@link KeyProvider}'s class initialiser (so any caller holding a provider finds
   * it installed).
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Function<KeyProvider, KeyRing> a) {
    if (accessor != null) {
      throw new IllegalStateException("the key ring accessor is already installed");
    }
    accessor = Objects.requireNonNull(a, "accessor");
  }

  /** The key ring of a provider. */
  public static synchronized KeyRing of(KeyProvider provider) {
    return accessor.apply(Objects.requireNonNull(provider, "provider"));
  }
}
