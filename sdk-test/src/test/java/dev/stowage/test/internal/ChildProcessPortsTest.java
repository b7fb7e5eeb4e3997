package dev.stowage.test.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.test.EmulatorStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Emulators get ports no one else in the JVM got, and a port lost to a race costs a restart. */
class ChildProcessPortsTest {
  @TempDir Path dir;

  @Test
  void portsAreNeverHandedOutTwice() {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      for (int port : Ports.free(3)) {
        assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
      }
      assertThat(seen.add(Ports.free())).isTrue();
    }
  }

  @Test
  void aChildThatLostItsPortIsStartedAgainOnNewPorts() throws Exception {
    Path first = dir.resolve("first-attempt");
    Path ready = dir.resolve("ready");
    AtomicInteger starts = new AtomicInteger();
    // The first start prints what Node.js prints when a port was taken and exits; the second
    // comes up.
    String script =
        "if [ ! -e "
            + first
            + " ]; then touch "
            + first
            + "; echo 'Error: listen EADDRINUSE: address already in use 127.0.0.1:'$0; exit 1;"
            + " fi; touch "
            + ready
            + "; exec sleep 60";
    ChildProcess p =
        ChildProcess.startOnFreePorts(
            "port-race",
            2,
            ports -> {
              starts.incrementAndGet();
              return List.of("sh", "-c", script, String.valueOf(ports[0]));
            },
            ports -> Files.exists(ready),
            Duration.ofSeconds(20),
            "(install hint)");
    try {
      assertThat(starts).hasValue(2);
      assertThat(p.isAlive()).isTrue();
      assertThat(p.ports()).hasSize(2).doesNotHaveDuplicates();
    } finally {
      p.stop(Duration.ZERO);
    }
  }

  @Test
  void aChildThatFailsForAnotherReasonIsNotRestartedAndSaysWhatToInstall() {
    AtomicInteger starts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                ChildProcess.startOnFreePorts(
                    "missing-piece",
                    1,
                    ports -> {
                      starts.incrementAndGet();
                      return List.of("sh", "-c", "echo 'Cannot find module azurite'; exit 3");
                    },
                    ports -> false,
                    Duration.ofSeconds(20),
                    "Install the thing."))
        .isInstanceOf(EmulatorStartException.class)
        .hasMessageContaining("exited with 3. Install the thing.")
        .hasMessageContaining("Cannot find module azurite");
    assertThat(starts).hasValue(1);
  }

  @Test
  void aChildThatKeepsLosingItsPortsSaysSoAfterThreeStarts() {
    AtomicInteger starts = new AtomicInteger();
    assertThatThrownBy(
            () ->
                ChildProcess.startOnFreePorts(
                    "unlucky",
                    1,
                    ports -> {
                      starts.incrementAndGet();
                      return List.of(
                          "sh",
                          "-c",
                          "echo 'java.net.BindException: Address already in use'; exit 1");
                    },
                    ports -> false,
                    Duration.ofSeconds(20),
                    "Install the thing."))
        .isInstanceOf(EmulatorStartException.class)
        .hasMessageContaining("another process bound a port it was given")
        .hasMessageNotContaining("Install the thing.");
    assertThat(starts).hasValue(3);
  }
}
