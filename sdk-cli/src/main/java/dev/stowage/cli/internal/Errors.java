package dev.stowage.cli.internal;

import dev.stowage.InvalidCursorException;
import dev.stowage.InvalidRequestException;
import dev.stowage.StowageException;
import dev.stowage.cli.ExitCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Turns whatever a command throws into one line for standard error and an {@link ExitCode}.
 * Stateless and thread-safe.
 */
public final class Errors {
  private static final int MAX_LENGTH = 600;

  private Errors() {}

  /**
   * What to print and which code to exit with.
   *
   * @param code an {@link ExitCode}
   * @param message one line, without the {@code stowage:} prefix
   */
  public record Report(int code, String message) {}

  /** The report of a command's failure. */
  public static Report report(Throwable e) {
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      return io(u.getCause());
    }
    if (e instanceof CliException c) {
      return new Report(c.exitCode(), oneLine(c.getMessage()));
    }
    if (e instanceof StowageException s && missingKeys(s)) {
      // Writing or reading encrypted attributes without --keyset: the same fix either way.
      return new Report(
          ExitCode.USAGE,
          oneLine(
              "missing keys (give --keyset FILE; --raw shows stored forms): " + s.getMessage()));
    }
    if (e instanceof InvalidRequestException || e instanceof InvalidCursorException) {
      return new Report(ExitCode.USAGE, describe((StowageException) e));
    }
    if (e instanceof StowageException s) {
      return new Report(ExitCode.FAILURE, describe(s));
    }
    if (e instanceof IllegalArgumentException) {
      return new Report(ExitCode.USAGE, oneLine(e.getMessage()));
    }
    if (e instanceof IOException io) {
      return io(io);
    }
    return new Report(
        ExitCode.INTERNAL,
        oneLine("unexpected error: " + e.getClass().getName() + ": " + e.getMessage()));
  }

  private static Report io(IOException e) {
    if (e instanceof NoSuchFileException f) {
      return new Report(ExitCode.USAGE, oneLine("no such file: " + f.getFile()));
    }
    if (e instanceof AccessDeniedException f) {
      return new Report(ExitCode.USAGE, oneLine("permission denied: " + f.getFile()));
    }
    if (e instanceof FileSystemException f) {
      return new Report(
          ExitCode.USAGE, oneLine("cannot use " + f.getFile() + ": " + f.getReason()));
    }
    return new Report(ExitCode.FAILURE, oneLine("I/O error: " + e.getMessage()));
  }

  private static String describe(StowageException e) {
    String kind =
        switch (e.getClass().getSimpleName()) {
          case "UnavailableException" -> "store unreachable: ";
          case "NotFoundException" -> "not found: ";
          case "ThrottledException" -> "throttled: ";
          case "IntegrityException" -> "integrity check failed: ";
          default -> "";
        };
    String message = String.valueOf(e.getMessage());
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String cause =
        root == e || root.getMessage() == null || message.contains(root.getMessage())
            ? ""
            : " (" + root.getMessage() + ")";
    return oneLine(kind + message + cause);
  }

  private static boolean missingKeys(StowageException e) {
    return e.getMessage() != null && e.getMessage().contains("no keys are configured");
  }

  /** The first line of {@code text}, at most 600 characters. */
  public static String oneLine(String text) {
    String s = String.valueOf(text).strip();
    int newline = s.indexOf('\n');
    if (newline >= 0) {
      s = s.substring(0, newline).strip();
    }
    return s.length() > MAX_LENGTH ? s.substring(0, MAX_LENGTH) + "…" : s;
  }
}
