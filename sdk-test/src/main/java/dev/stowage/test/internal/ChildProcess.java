package dev.stowage.test.internal;

import dev.stowage.test.EmulatorStartException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * An emulator running as a child process, its output in a log file. Its standard input stays an
 * open pipe that the child watches (see {@link ParentWatch} and the Azurite wrapper): when this JVM
 * ends, even killed, the pipe closes and the child exits. {@link #stop} ends it and its
 * descendants; a JVM shutdown hook does the same as a backstop.
 */
public final class ChildProcess {
  private final String name;
  private final Process process;
  private final Path log;
  private final Thread hook;
  private final OutputStream stdin;

  private ChildProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.stdin = process.getOutputStream();
    this.hook = new Thread(this::kill, "stop-" + name);
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Starts {@code command}, its output going to a log file named after {@code name}. */
  public static ChildProcess start(String name, List<String> command, String installHint) {
    Path log = logFile(name);
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      return new ChildProcess(name, p, log);
    } catch (IOException e) {
      throw new EmulatorStartException(
          "could not start " + name + " (" + e.getMessage() + "). " + installHint, e);
    }
  }

  /** Waits until {@code ready} holds, failing with the log if the process dies or time runs out. */
  public void awaitReady(BooleanSupplier ready, Duration timeout, String installHint) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready.getAsBoolean()) {
      if (!process.isAlive()) {
        stop(Duration.ZERO);
        throw new EmulatorStartException(
            name + " exited with " + process.exitValue() + ". " + installHint + "\n" + tail());
      }
      if (System.nanoTime() > deadline) {
        stop(Duration.ZERO);
        throw new EmulatorStartException(
            name + " did not become ready within " + timeout.toSeconds() + " s\n" + tail());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop(Duration.ZERO);
        throw new EmulatorStartException("interrupted while starting " + name, e);
      }
    }
  }

  /** The process id, for tests. */
  public long pid() {
    return process.pid();
  }

  /** True while the process runs. */
  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Ends the process: closes its standard input (the child exits by itself), waits up to {@code
   * grace}, then destroys it and its descendants.
   */
  public void stop(Duration grace) {
    try {
      stdin.close();
    } catch (IOException ignored) {
      // already closed
    }
    try {
      if (!grace.isZero()) {
        process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    kill();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or has run
    }
  }

  private void kill() {
    List<ProcessHandle> descendants = process.descendants().toList();
    process.destroy();
    descendants.forEach(ProcessHandle::destroy);
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The last lines of the log. */
  public String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "--- last lines of "
          + log.toAbsolutePath()
          + " ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log.toAbsolutePath() + ")";
    }
  }

  private static Path logFile(String name) {
    try {
      Path target = Path.of("target");
      Path dir = Files.isDirectory(target) ? target : Path.of(System.getProperty("java.io.tmpdir"));
      return Files.createTempFile(dir, "stowage-" + name.replace(' ', '-') + "-", ".log");
    } catch (IOException e) {
      throw new IllegalStateException("cannot create a log file for " + name, e);
    }
  }
}
