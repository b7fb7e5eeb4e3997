package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.cli.internal.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
            "--subsegments",
            "3",
            "--page-size",
            "40");
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("copied 201 item(s), 1 blob(s) on the direct runner; 0 not fitting the target")
        .contains("source read in 15 driver segment(s)")
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
  void subsegmentsDivideEachPartOfTheScans() throws Exception {
    Path spec = things(30);
    // Default: 4 driver segments per part.
    Cli.Result byDefault =
        migrate("memory://things?store=b", "--runner", "direct", "--segments", "2");
    assertThat(byDefault.code()).as(byDefault.err() + byDefault.out()).isZero();
    assertThat(byDefault.out())
        .contains("copied 30 item(s)")
        .contains("source read in 8 driver segment(s)")
        .contains("missing 0, extra 0, different 0");
    Cli.Result five =
        migrate(
            "memory://things?store=b&namespace=five",
            "--runner",
            "direct",
            "--segments",
            "2",
            "--subsegments",
            "5");
    assertThat(five.code()).as(five.err() + five.out()).isZero();
    assertThat(five.out())
        .contains("copied 30 item(s)")
        .contains("source read in 10 driver segment(s)")
        .contains("-> OK");
    assertThat(spec).exists();
  }

  @Test
  void badSubsegmentsAreRefusedBeforeAnythingIsWritten() throws Exception {
    things(10);
    String[][] cases = {
      {"--runner", "direct", "--subsegments", "0"},
      {"--runner", "direct", "--subsegments", "1001"},
      {"--runner", "direct", "--subsegments", "-3"},
      {"--subsegments", "3"},
      {"--runner", "direct", "--segments", "2000", "--subsegments", "1000"},
      {"--runner", "direct", "--segments", "0"},
      {"--runner", "direct", "--subsegments", "many"},
    };
    String[] messages = {
      "--subsegments must be 1 to 1000, not 0",
      "--subsegments must be 1 to 1000, not 1001",
      "--subsegments must be 1 to 1000, not -3",
      "--subsegments applies with --runner only",
      "--segments 2000 times --subsegments 1000 is 2000000 driver segments per scan; a driver"
          + " plans at most 1000000",
      "--segments must be at least 1, not 0",
      "Invalid value for option '--subsegments'",
    };
    for (int i = 0; i < cases.length; i++) {
      Cli.Result m = migrate("memory://things?store=b", cases[i]);
      assertThat(m.code()).as(String.join(" ", cases[i])).isNotZero();
      assertThat(m.err()).as(String.join(" ", cases[i])).contains(messages[i]);
      assertThat(m.out()).doesNotContain("copied");
      // Nothing was written: the target table was not even created.
      Cli.Result scan = Cli.run("scan", "--store", "memory://things?store=b", "--pk", "id:S");
      assertThat(scan.code()).isNotZero();
      assertThat(scan.err()).contains("table 'things' does not exist");
    }
  }

  /** A table {@code things} of {@code n} items in {@code memory://things?store=a}. */
  private Path things(int n) throws Exception {
    Path spec = dir.resolve("t.json");
    Files.writeString(spec, "{\"name\":\"things\",\"key\":\"id:S\"}");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < n; i++) {
      lines.append(String.format("{\"id\":\"t%03d\",\"n\":%d}%n", i, i));
    }
    Path file = dir.resolve("things.jsonl");
    Files.writeString(file, lines);
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            "memory://things?store=a",
            "--spec",
            spec.toString(),
            "--create-table",
            "--file",
            file.toString());
    assertThat(put.code()).as(put.err()).isZero();
    return spec;
  }

  private Cli.Result migrate(String to, String... options) {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "migrate",
            "--from",
            "memory://things?store=a",
            "--to",
            to,
            "--spec",
            dir.resolve("t.json").toString()));
    args.addAll(List.of(options));
    return Cli.run(args.toArray(String[]::new));
  }

  @Test
  void aRunnerNotOnTheClassPathIsNamedWithItsArtifact() throws Exception {
    Path spec = dir.resolve("t.json");
    Files.writeString(spec, "{\"name\":\"things\",\"key\":\"id:S\"}");
    // Only the DirectRunner is on this module's test class path (Flink's and Spark's runs are in
    // sdk-beam-flink-tests and sdk-beam-spark-tests).
    String[][] cases = {
      {
        "flink",
        "the flink runner is not on the class path: add org.apache.beam:beam-runners-flink-1.19"
      },
      {
        "FlinkRunner",
        "the flink runner is not on the class path: add org.apache.beam:beam-runners-flink-1.19"
      },
      {
        "spark",
        "the spark runner is not on the class path: add org.apache.beam:beam-runners-spark-3 with"
            + " org.apache.spark:spark-core_2.12 and spark-streaming_2.12 3.5.x"
      },
      {
        "dataflow",
        "the dataflow runner is not on the class path: add"
            + " org.apache.beam:beam-runners-google-cloud-dataflow-java (Beam 2.70.0"
      },
      {"samza", "unknown Beam runner 'samza'; known: direct, dataflow, flink, spark"},
    };
    for (String[] c : cases) {
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
              c[0]);
      assertThat(m.code()).as(c[0]).isNotZero();
      assertThat(m.err()).as(c[0]).contains(c[1]);
      assertThat(m.out()).as(c[0]).doesNotContain("copied");
    }
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
