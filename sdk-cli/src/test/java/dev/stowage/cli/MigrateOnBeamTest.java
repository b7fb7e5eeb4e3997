package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.cli.internal.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stowage migrate --runner direct}: sdk-beam's pipeline, loaded from the class path. */
class MigrateOnBeamTest {
  @TempDir Path dir;
  private Path keyset;

  @BeforeEach
  void fresh() throws Exception {
    Backends.resetMemory();
    System.setProperty("stowage.home", dir.resolve("home").toString());
    keyset = Keysets.write(dir.resolve("keys.json"), Keysets.generate());
  }

  @Test
  void migratesAndVerifiesOnTheDirectRunner() throws Exception {
    Path spec = dir.resolve("orders.json");
    Files.writeString(
        spec,
        "{\"name\":\"orders\",\"key\":\"id:S\",\"indexes\":[\"byShop=shop/day\"],"
            + "\"encrypted\":[\"card\"],\"compressed\":[\"notes\"]}");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append(
          String.format(
              "{\"id\":\"o%03d\",\"shop\":\"s%d\",\"day\":\"2026-11-%02d\",\"card\":\"4111-%04d\","
                  + "\"notes\":\"%s\"}%n",
              i, i % 4, 1 + i % 28, i, "gift wrap ".repeat(30)));
    }
    lines
        .append("{\"id\":\"big\",\"shop\":\"s1\",\"day\":\"2026-11-01\",\"blob\":\"")
        .append("z".repeat(700_000))
        .append("\"}\n");
    Path file = dir.resolve("orders.jsonl");
    Files.writeString(file, lines);
    String from = "memory://orders?store=old";
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            from,
            "--spec",
            spec.toString(),
            "--keyset",
            keyset.toString(),
            "--create-table",
            "--file",
            file.toString());
    assertThat(put.code()).as(put.err()).isZero();

    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--to",
            "memory://orders?store=new&namespace=copy",
            "--spec",
            spec.toString(),
            "--runner",
            "direct",
            "--segments",
            "5",
            "--page-size",
            "40");
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("copied 201 item(s), 1 blob(s) on the direct runner; 0 not fitting the target")
        .contains(
            "verification: source 201, target 201, missing 0, extra 0, different 0, index entries"
                + " 201 (missing 0, extra 0) -> OK");

    Cli.Result get =
        Cli.run(
            "get",
            "--store",
            "memory://orders?store=new&namespace=copy",
            "--spec",
            spec.toString(),
            "--keyset",
            keyset.toString(),
            "--key",
            "{\"id\":\"o007\"}");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out()).contains("4111-0007");
  }

  @Test
  void aRunnerNotOnTheClassPathIsNamedWithItsArtifact() throws Exception {
    Path spec = dir.resolve("t.json");
    Files.writeString(spec, "{\"name\":\"things\",\"key\":\"id:S\"}");
    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            "memory://things?store=a",
            "--to",
            "memory://things?store=b",
            "--spec",
            spec.toString(),
            "--runner",
            "flink");
    assertThat(m.code()).isNotZero();
    assertThat(m.err())
        .contains(
            "the flink runner is not on the class path: add org.apache.beam:beam-runners-flink");
  }

  @Test
  void checkpointsDoNotApplyToPipelines() throws Exception {
    Path spec = dir.resolve("t.json");
    Files.writeString(spec, "{\"name\":\"things\",\"key\":\"id:S\"}");
    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            "memory://things?store=a",
            "--to",
            "memory://things?store=b",
            "--spec",
            spec.toString(),
            "--runner",
            "direct",
            "--checkpoint",
            dir.resolve("cp").toString());
    assertThat(m.code()).isNotZero();
    assertThat(m.err()).contains("--checkpoint does not apply with --runner");
  }
}
