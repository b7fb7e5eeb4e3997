package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 50 MiB item is written and read back in a JVM whose heap is capped at three times the item size
 * (plus 8 MiB for the JVM's own objects): overflow streams values instead of buffering copies.
 */
class LargeItemHeapTest {
  private static final int ITEM_MIB = 50;

  @TempDir Path dir;

  @Test
  void fiftyMegabyteItemRoundTripsWithinThreeTimesItsSizeOfHeap() throws Exception {
    int heapMib = 3 * ITEM_MIB + 8;
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx" + heapMib + "m",
            "-Xms" + heapMib + "m",
            "-Xmn8m",
            "-XX:+UseSerialGC",
            "-XX:+ExitOnOutOfMemoryError",
            "-cp",
            classPath(),
            LargeItemProbe.class.getName(),
            dir.resolve("blobs").toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    Thread killer = new Thread(process::destroyForcibly);
    Runtime.getRuntime().addShutdownHook(killer);
    try {
      boolean done = process.waitFor(120, TimeUnit.SECONDS);
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(done).as("probe finished in time").isTrue();
      assertThat(process.exitValue()).as(output).isZero();
      assertThat(output).startsWith("OK");
    } finally {
      process.destroyForcibly();
      removeHook(killer);
    }
  }

  /**
   * Everything this JVM loads classes from, as one class path: the test classes, the module path
   * (the build may run tests as a patched module) and the class path.
   */
  private static String classPath() throws Exception {
    List<String> parts = new java.util.ArrayList<>();
    parts.add(
        Path.of(LargeItemProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    for (String p : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(p);
      if (v != null && !v.isEmpty()) {
        parts.add(v);
      }
    }
    return String.join(java.io.File.pathSeparator, parts);
  }

  private static void removeHook(Thread hook) throws IOException {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The JVM is exiting; the hook runs anyway.
    }
  }
}
