package dev.stowage.cli;

/** The exit codes of the {@code stowage} command (the table in docs/cli.md). Constants only. */
public final class ExitCode {
  /** The command did what was asked. */
  public static final int OK = 0;

  /**
   * The store or the data failed: an unreachable or throttling backend, a conflict, a failed
   * condition, an integrity failure (a tampered value, wrong keys), a missing table or item, a
   * failed verification, items a migration could not copy.
   */
  public static final int FAILURE = 1;

  /**
   * The command was wrong: an unknown command or option, a missing or malformed value, a bad store
   * URI, malformed JSON, spec or config, a key or request the table refuses, encrypted attributes
   * without {@code --keyset}, a file that does not exist or cannot be read (a keyset file
   * included).
   */
  public static final int USAGE = 2;

  /** Something unexpected: a bug in Stowage or an error of a backend it does not translate. */
  public static final int INTERNAL = 3;

  private ExitCode() {}
}
