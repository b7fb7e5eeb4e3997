package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java code block of sdk-testkit's README compiles, as written, against the kit, this driver
 * and its test harness: each block becomes one source file in this package with the imports a user
 * would write. Compiled by the JDK's {@code javac} in a child process on this test's class path.
 */
class ReadmeSamplesTest {
  private static final Path README = Path.of("..", "sdk-testkit", "README.md");
  private static final Pattern BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");
  private static final String IMPORTS =
      String.join(
          "\n",
          "package dev.stowage.dynamodb;",
          "import dev.stowage.*;",
          "import dev.stowage.item.*;",
          "import dev.stowage.s3.*;",
          "import dev.stowage.test.*;",
          "import dev.stowage.testkit.*;",
          "import java.util.*;",
          "");

  @TempDir Path dir;

  @Test
  void everyJavaBlockOfTheKitsReadmeCompiles() throws Exception {
    List<String> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(Files.readString(README, StandardCharsets.UTF_8));
    while (m.find()) {
      blocks.add(m.group(1));
    }
    assertThat(blocks).as("Java blocks in " + README).isNotEmpty();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "javac").toString());
    command.addAll(List.of("--release", "17", "-proc:none", "-d", dir.resolve("out").toString()));
    command.addAll(List.of("-classpath", classPath()));
    for (int i = 0; i < blocks.size(); i++) {
      Path file = dir.resolve("src").resolve("ReadmeSample" + i + ".java");
      Files.createDirectories(file.getParent());
      // One public-free top-level class per block; the file name does not need to match it.
      Files.writeString(file, IMPORTS + blocks.get(i), StandardCharsets.UTF_8);
      command.add(file.toString());
    }
    Process javac = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean done = javac.waitFor(120, TimeUnit.SECONDS);
    String output = new String(javac.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(done).as("javac finished").isTrue();
    assertThat(javac.exitValue()).as(output).isZero();
  }

  /** This test's classes, the module path (tests may run as a patched module) and class path. */
  private static String classPath() throws Exception {
    List<String> parts = new ArrayList<>();
    parts.add(
        Path.of(ReadmeSamplesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString());
    for (String p : new String[] {"jdk.module.path", "java.class.path"}) {
      String v = System.getProperty(p);
      if (v != null && !v.isEmpty()) {
        parts.add(v);
      }
    }
    return String.join(File.pathSeparator, parts);
  }
}
