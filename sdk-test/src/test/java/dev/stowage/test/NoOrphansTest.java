package dev.stowage.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A test JVM killed outright (no shutdown hooks run) leaves no emulator behind: the child processes
 * notice that their standard input closed and exit.
 */
class NoOrphansTest {
  /** A stand-in test JVM: starts the child-process emulators, prints their pids, then waits. */
  public static final class Child {
    private Child() {}

    /**
     * Starts Azurite and the Firestore emulator.
     *
     * @param args unused
     * @throws InterruptedException never: the parent kills this process
     */
    public static void main(String[] args) throws InterruptedException {
      System.out.println(
          "pids " + Azurite.start().pid() + " " + DatastoreEmulator.startFirestore().pid());
      System.out.flush();
      Thread.sleep(Duration.ofMinutes(2).toMillis());
    }
  }

  @Test
  void emulatorsExitWhenTheTestJvmIsKilled() throws Exception {
    Process jvm =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Child.class.getName())
            .redirectErrorStream(true)
            .start();
    List<ProcessHandle> emulators = new ArrayList<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("pids ")) {
        // startup output
      }
      assertThat(line).as("the child JVM's output").isNotNull();
      for (String pid : line.substring(5).split(" ")) {
        emulators.add(ProcessHandle.of(Long.parseLong(pid)).orElseThrow());
      }
      assertThat(emulators).allMatch(ProcessHandle::isAlive);

      jvm.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
    } finally {
      jvm.destroyForcibly();
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (emulators.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    try {
      assertThat(emulators).noneMatch(ProcessHandle::isAlive);
    } finally {
      emulators.forEach(ProcessHandle::destroyForcibly);
    }
  }
}
