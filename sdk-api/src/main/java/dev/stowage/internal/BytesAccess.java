package dev.stowage.internal;

import dev.stowage.item.Bytes;

/**
 * Copy-free access to the storage of {@link Bytes} for Stowage's own codecs, which otherwise would
 * copy every encrypted or compressed value twice more than the libraries they call (once to read
 * the envelope, once to cut the value out of its serialisation). Not API.
 *
 * <p>Callers must treat arrays obtained from {@link #array} as read-only and must not touch arrays
 * passed to {@link #wrap} afterwards: {@link Bytes} is immutable only as long as they do.
 */
public final class BytesAccess {
  /** Implemented by {@link Bytes} itself, which installs it when its class is initialised. */
  public interface Accessor {
    /** The backing array; the value is {@code size()} bytes from {@link #offset}. */
    byte[] array(Bytes b);

    /** Where the value starts in {@link #array}. */
    int offset(Bytes b);

    /** {@code bytes[offset, offset + length)} as a value, without copying. */
    Bytes wrap(byte[] bytes, int offset, int length);
  }

  private static Accessor accessor;

  static {
    // Initialising Bytes installs its accessor; doing it here means no caller can get in first.
    Bytes.empty();
  }

  private BytesAccess() {}

  /**
   * Called once, by {@link Bytes}'s class initialiser.
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Accessor a) {
    if (accessor != null) {
      throw new IllegalStateException("the Bytes accessor is already installed");
    }
    accessor = a;
  }

  /** The backing array of {@code b}; read only. The value starts at {@link #offset}. */
  public static byte[] array(Bytes b) {
    return accessor.array(b);
  }

  /** Where {@code b}'s value starts in {@link #array}. */
  public static int offset(Bytes b) {
    return accessor.offset(b);
  }

  /**
   * Wraps {@code bytes[offset, offset + length)} without copying; the caller gives the array up.
   */
  public static Bytes wrap(byte[] bytes, int offset, int length) {
    return accessor.wrap(bytes, offset, length);
  }
}
