package dev.stowage.codec.internal;

import dev.stowage.codec.Codecs;
import java.util.Objects;
import java.util.function.Function;

/**
 * Lets Stowage's core reach the {@link EnvelopeCodec} behind {@link Codecs}, to encode with a
 * {@link EnvelopeCodec.SizeSink} that counts compression per table. Not API.
 */
public final class EnvelopeCodecs {
  private static Function<Codecs, EnvelopeCodec> accessor;

  static {
    // Initialising Codecs installs its accessor; doing it here means no caller can get in first.
    Codecs.defaults();
  }

  private EnvelopeCodecs() {}

  /**
   * Called once, by {@link Codecs}'s class initialiser.
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Function<Codecs, EnvelopeCodec> a) {
    if (accessor != null) {
      throw new IllegalStateException("the codec accessor is already installed");
    }
    accessor = Objects.requireNonNull(a, "accessor");
  }

  /** The codec behind {@code codecs}. */
  public static synchronized EnvelopeCodec of(Codecs codecs) {
    return accessor.apply(Objects.requireNonNull(codecs, "codecs"));
  }
}
