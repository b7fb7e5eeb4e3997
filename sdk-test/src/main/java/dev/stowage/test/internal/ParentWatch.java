package dev.stowage.test.internal;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Main class wrapped around a Java emulator started as a child process: it runs the emulator's own
 * main class and exits the process as soon as its standard input reaches end of file, which happens
 * when the test JVM that started it ends for any reason, including {@code kill -9}. So an emulator
 * is never left running after the test run that needed it.
 *
 * <p>Usage: {@code java -cp sdk-test.jar:emulator.jar dev.stowage.test.internal.ParentWatch
 * emulator.Main args...}
 */
public final class ParentWatch {
  private ParentWatch() {}

  /**
   * Runs {@code args[0]}'s main with the remaining arguments and watches standard input.
   *
   * @param args the emulator's main class, then its arguments
   * @throws Throwable whatever the emulator's main throws
   */
  public static void main(String[] args) throws Throwable {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: ParentWatch main.Class [args...]");
    }
    Thread watch = new Thread(ParentWatch::exitAtEndOfInput, "stowage-parent-watch");
    watch.setDaemon(true);
    watch.start();
    Method main = Class.forName(args[0]).getMethod("main", String[].class);
    try {
      main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void exitAtEndOfInput() {
    try {
      while (System.in.read() != -1) {
        // The parent never writes; only end of file matters.
      }
    } catch (IOException e) {
      // A broken pipe means the parent is gone too.
    }
    Thread halt =
        new Thread(
            () -> {
              try {
                Thread.sleep(5_000);
              } catch (InterruptedException ignored) {
                // halt now
              }
              Runtime.getRuntime().halt(0);
            });
    halt.setDaemon(true);
    halt.start();
    System.exit(0);
  }
}
