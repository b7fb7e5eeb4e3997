package dev.stowage.cli.internal;

/** A user error the command line reports as one line and exit code 2 (usage) or 1. */
public final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exitCode;

  /** A usage error (exit code 2). */
  public CliException(String message) {
    this(message, 2);
  }

  /** An error with a chosen exit code. */
  public CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  /** The process exit code to use. */
  public int exitCode() {
    return exitCode;
  }
}
