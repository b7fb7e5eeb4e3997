package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local store is the command line's default: what one command (or process) puts, the next gets,
 * with nothing to start. Every test uses a temporary stowage home, never the real one.
 */
class LocalStoreCommandsTest {
  @TempDir Path dir;
  private Path home;

  @BeforeEach
  void fresh() {
    home = dir.resolve("home");
    System.setProperty("stowage.home", home.toString());
  }

  @Test
  void aBareTableNameIsATableOfTheDefaultLocalStore() {
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            "orders",
            "--pk",
            "id:S",
            "--create-table",
            "--item",
            "{\"id\":\"o1\",\"total\":42}");
    assertThat(put.code()).as(put.err()).isZero();
    assertThat(put.err()).contains("stored 1 item(s)");
    assertThat(home.resolve("default.db")).exists();

    Cli.Result get = Cli.run("get", "--store", "orders", "--pk", "id:S", "--key", "o1");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out()).contains("\"total\":42");
    // The same table through its URI.
    Cli.Result uri = Cli.run("get", "--store", "local://orders", "--pk", "id:S", "--key", "o1");
    assertThat(uri.out()).isEqualTo(get.out());
  }

  @Test
  void withoutStoreTheSpecNamesATableOfTheDefaultLocalStore() throws Exception {
    Path spec = dir.resolve("orders.json");
    Files.writeString(spec, "{\"name\":\"orders\",\"key\":\"id:S\"}");
    Cli.Result put =
        Cli.run("put", "--spec", spec.toString(), "--create-table", "--item", "{\"id\":\"o2\"}");
    assertThat(put.code()).as(put.err()).isZero();
    Cli.Result get = Cli.run("get", "--store", "orders", "--pk", "id:S", "--key", "o2");
    assertThat(get.code()).as(get.err()).isZero();

    Cli.Result none = Cli.run("get", "--pk", "id:S", "--key", "o2");
    assertThat(none.code()).isEqualTo(ExitCode.USAGE);
    assertThat(none.err()).contains("no table: give --store TABLE");
  }

  @Test
  void namedStoresFilesLimitsAndNamespacesAreSeparate() {
    String file = dir.resolve("elsewhere/app.db").toString();
    assertThat(put("local://orders?store=team", "{\"id\":\"a\"}").code()).isZero();
    assertThat(put("local://orders?file=" + file, "{\"id\":\"b\"}").code()).isZero();
    assertThat(put("local://orders?namespace=dev", "{\"id\":\"c\"}").code()).isZero();
    assertThat(home.resolve("team.db")).exists();
    assertThat(Path.of(file)).exists();

    assertThat(get("local://orders?store=team", "a").code()).isZero();
    assertThat(get("local://orders?store=team", "b").code()).isEqualTo(ExitCode.FAILURE);
    assertThat(get("local://orders?file=" + file, "b").code()).isZero();
    assertThat(get("local://orders?namespace=dev", "c").code()).isZero();
    assertThat(get("local://orders?namespace=dev", "a").code()).isEqualTo(ExitCode.FAILURE);

    Cli.Result both = get("local://orders?store=team&file=" + file, "a");
    assertThat(both.code()).isEqualTo(ExitCode.USAGE);
    assertThat(both.err()).contains("either file= or store=");
    Cli.Result unknown = get("local://orders?region=x", "a");
    assertThat(unknown.code()).isEqualTo(ExitCode.USAGE);
    assertThat(unknown.err()).contains("unknown parameter 'region'");
    Cli.Result limits = get("local://orders?limits=cosmos", "a");
    assertThat(limits.code()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void oversizedItemsOverflowToTheDirectoryBesideTheFile() throws Exception {
    String big = "x".repeat(500_000); // over the default DynamoDB-like 400 KB
    Cli.Result put = put("local://docs", "{\"id\":\"big\",\"body\":\"" + big + "\"}");
    assertThat(put.code()).as(put.err()).isZero();
    try (var blobs = Files.walk(home.resolve("default.blobs"))) {
      assertThat(blobs.filter(Files::isRegularFile).count()).isEqualTo(1);
    }
    Cli.Result get = get("local://docs", "big");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out()).contains(big);
  }

  @Test
  void putInOneProcessIsFoundByGetInTheNext() throws Exception {
    Process put =
        stowage(
            "put",
            "--store",
            "orders",
            "--pk",
            "id:S",
            "--create-table",
            "--item",
            "{\"id\":\"o1\",\"who\":\"first process\"}");
    assertThat(exit(put)).as(output(put)).isZero();
    Process get = stowage("get", "--store", "orders", "--pk", "id:S", "--key", "o1");
    int code = exit(get);
    String out = output(get);
    assertThat(code).as(out).isZero();
    assertThat(out).contains("\"who\":\"first process\"");
    assertThat(home.resolve("default.db")).exists();
  }

  private static Cli.Result put(String store, String item) {
    return Cli.run("put", "--store", store, "--pk", "id:S", "--create-table", "--item", item);
  }

  private static Cli.Result get(String store, String key) {
    return Cli.run("get", "--store", store, "--pk", "id:S", "--key", key);
  }

  /** The command line in a JVM of its own, with $STOWAGE_HOME set to the test's home. */
  private Process stowage(String... args) throws Exception {
    Set<String> path = new LinkedHashSet<>();
    for (String prop : List.of("jdk.module.path", "java.class.path")) {
      String v = System.getProperty(prop);
      if (v != null && !v.isEmpty()) {
        path.addAll(List.of(v.split(File.pathSeparator)));
      }
    }
    path.add(
        Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(String.join(File.pathSeparator, path));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("STOWAGE_HOME", home.toString());
    return pb.start();
  }

  private static int exit(Process p) throws Exception {
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("stowage did not finish");
    }
    return p.exitValue();
  }

  private static String output(Process p) throws Exception {
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
