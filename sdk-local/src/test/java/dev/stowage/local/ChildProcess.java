package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Starts a class's {@code main} in another JVM, on the classpath of this test run (the module path,
 * the class path and the test classes, all as plain class path): a second process on the same store
 * file.
 */
final class ChildProcess {
  private ChildProcess() {}

  static Process start(Class<?> main, String... args) throws Exception {
    Set<String> path = new LinkedHashSet<>();
    for (String prop : List.of("jdk.module.path", "java.class.path")) {
      String v = System.getProperty(prop);
      if (v != null && !v.isEmpty()) {
        path.addAll(List.of(v.split(File.pathSeparator)));
      }
    }
    path.add(location(main));
    path.add(location(LocalDriver.class));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(String.join(File.pathSeparator, path));
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  /** Waits for the process and fails with its output unless it exited 0. */
  static void awaitSuccess(Process p) throws Exception {
    assertThat(await(p)).as(output(p)).isZero();
  }

  /** Waits for the process (at most 3 minutes) and returns its exit code. */
  static int await(Process p) throws Exception {
    if (!p.waitFor(3, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("the child process did not finish");
    }
    return p.exitValue();
  }

  static String output(Process p) throws Exception {
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static String location(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
