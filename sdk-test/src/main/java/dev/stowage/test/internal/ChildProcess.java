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
import java.util.function.Function;
import java.util.function.Predicate;

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
  private final int[] ports;

  private ChildProcess(String name, Process process, Path log, int[] ports) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.ports = ports;
    this.stdin = process.getOutputStream();
    this.hook = new Thread(this::kill, "stop-" + name);
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Starts {@code command}, its output going to a log file named after {@code name}. */
  public static ChildProcess start(String name, List<String> command, String installHint) {
    return start(name, command, installHint, new int[0]);
  }

  /**
   * Starts the command built for {@code portCount} fresh ports and waits until {@code ready} holds
   * for them. A port is free when chosen but only bound when the child starts; a child that exits
   * because another process bound one of its ports in between is started again on new ports, three
   * times at most.
   */
  public static ChildProcess startOnFreePorts(
      String name,
      int portCount,
      Function<int[], List<String>> command,
      Predicate<int[]> ready,
      Duration timeout,
      String installHint) {
    for (int attempt = 1; ; attempt++) {
      int[] ports = Ports.free(portCount);
      ChildProcess p = start(name, command.apply(ports), installHint, ports);
      try {
        p.awaitReady(() -> ready.test(ports), timeout, installHint);
        return p;
      } catch (EmulatorStartException e) {
        if (attempt >= 3 || !p.lostAPort()) {
          throw e;
        }
      }
    }
  }

  private static ChildProcess start(
      String name, List<String> command, String installHint, int[] ports) {
    Path log = logFile(name);
    try {
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      return new ChildProcess(name, p, log, ports);
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
        String why =
            lostAPort() ? "another process bound a port it was given before it could" : installHint;
        throw new EmulatorStartException(
            name + " exited with " + process.exitValue() + ". " + why + "\n" + tail());
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

  /** The ports it was started on by {@link #startOnFreePorts}, in the order it was given them. */
  public int[] ports() {
    return ports.clone();
  }

  /** True if the child's log says it could not bind a port because another process had it. */
  boolean lostAPort() {
    try {
      String text = Files.readString(log);
      return text.contains("EADDRINUSE") || text.contains("Address already in use");
    } catch (IOException e) {
      return false;
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
