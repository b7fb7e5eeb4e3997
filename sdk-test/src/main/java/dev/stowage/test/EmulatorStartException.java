package dev.stowage.test;

/**
 * An emulator could not be started. The message says what is missing and how to install it. Tests
 * that needed the emulator fail with it; they are never skipped.
 */
public final class EmulatorStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message saying what to install.
   *
   * @param message what failed and what to install
   */
  public EmulatorStartException(String message) {
    super(message);
  }

  /**
   * An exception with a message saying what to install, and its cause.
   *
   * @param message what failed and what to install
   * @param cause the underlying failure
   */
  public EmulatorStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
