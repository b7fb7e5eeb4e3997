package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.DeleteJob;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.cli.internal.Backends;
import dev.stowage.cli.internal.CursorKeys;
import dev.stowage.cli.internal.StoreLocation;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.query.Query;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {
  private static final String STORE = "memory://events?store=cmds";
  private static final String[] SPEC = {
    "--pk", "feed:S", "--sk", "at:N", "--spec-index", "byKind=kind/at"
  };

  @TempDir Path dir;

  @BeforeEach
  void fresh() {
    Backends.resetMemory();
    System.setProperty("stowage.home", dir.resolve("home").toString());
  }

  private Cli.Result run(String command, String... args) {
    if (command.equals("put")) {
      // Every test here starts from an empty store; only put may create the table.
      String[] withCreate = new String[args.length + 1];
      withCreate[0] = "--create-table";
      System.arraycopy(args, 0, withCreate, 1, args.length);
      args = withCreate;
    }
    String[] all = new String[args.length + SPEC.length + 3];
    all[0] = command;
    all[1] = "--store";
    all[2] = STORE;
    System.arraycopy(SPEC, 0, all, 3, SPEC.length);
    System.arraycopy(args, 0, all, 3 + SPEC.length, args.length);
    return Cli.run(all);
  }

  private void putEvents(int n) {
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= n; i++) {
      lines.append(
          String.format(
              "{\"feed\":\"f\",\"at\":%d,\"kind\":\"%s\",\"price\":%d.50}%n",
              i, i % 2 == 0 ? "even" : "odd", i));
    }
    Path file = dir.resolve("items.jsonl");
    try {
      Files.writeString(file, lines);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Cli.Result r = run("put", "--file", file.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("stored " + n + " item(s)");
  }

  @Test
  void putThenGetRoundTripsJson() {
    Cli.Result put =
        run("put", "--item", "{\"feed\":\"f\",\"at\":1,\"tags\":{\"$ss\":[\"x\"]},\"n\":0.10}");
    assertThat(put.code()).as(put.err()).isZero();
    Cli.Result get = run("get", "--key", "{\"feed\":\"f\",\"at\":1}");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out().trim())
        .isEqualTo("{\"at\":1,\"feed\":\"f\",\"n\":0.1,\"tags\":{\"$ss\":[\"x\"]}}");
    Cli.Result strings = run("get", "--key", "{\"feed\":\"f\",\"at\":1}", "--numbers-as-strings");
    assertThat(strings.out()).contains("\"n\":{\"$n\":\"0.1\"}");
  }

  @Test
  void rawShowsStoredFormWithReservedAttributes() {
    run("put", "--item", "{\"feed\":\"f\",\"at\":1,\"kind\":\"odd\"}");
    Cli.Result raw = run("get", "--key", "{\"feed\":\"f\",\"at\":1}", "--raw");
    assertThat(raw.code()).as(raw.err()).isZero();
    assertThat(raw.out())
        .contains("\"stowage:ix:byKind:p\":{\"$b\":")
        .contains("\"stowage:ix:byKind:s\"");
    Cli.Result scan = run("scan", "--raw");
    assertThat(scan.out()).contains("stowage:ix:byKind:p");
  }

  @Test
  void getOfMissingItemExitsOne() {
    putEvents(1);
    Cli.Result r = run("get", "--key", "{\"feed\":\"f\",\"at\":99}");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("no item with key");
  }

  @Test
  void queryPagesWithCursorsAndIndexes() {
    putEvents(10);
    Cli.Result first = run("query", "--partition", "f", "--desc", "--limit", "3");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out().lines().map(l -> l.replaceAll(".*\"at\":(\\d+).*", "$1")))
        .containsExactly("10", "9", "8");
    assertThat(first.err()).contains("\"hasBefore\":true").contains("\"hasAfter\":false");
    String before = first.err().replaceAll("(?s).*\"before\":\"([^\"]+)\".*", "$1");
    Cli.Result next = run("query", "--cursor", before);
    assertThat(next.out().lines().map(l -> l.replaceAll(".*\"at\":(\\d+).*", "$1")))
        .containsExactly("7", "6", "5");

    Cli.Result evens =
        run("query", "--index", "byKind", "--partition", "even", "--sort-op", "gt", "--sort", "4");
    assertThat(evens.out().lines().map(l -> l.replaceAll(".*\"at\":(\\d+).*", "$1")))
        .containsExactly("6", "8", "10");

    Cli.Result all = run("query", "--partition", "f", "--limit", "4", "--all");
    assertThat(all.out().lines()).hasSize(10);
    assertThat(run("scan").out().lines()).hasSize(10);
  }

  @Test
  void deleteWhereDryRunThenDelete() {
    putEvents(20);
    Cli.Result dry =
        run(
            "delete-where",
            "--index",
            "byKind",
            "--partition",
            "odd",
            "--dry-run",
            "--page-size",
            "3");
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("dry run: 10 item(s) match");
    assertThat(run("scan").out().lines()).hasSize(20);
    Cli.Result del =
        run(
            "delete-where",
            "--index",
            "byKind",
            "--partition",
            "odd",
            "--rate",
            "1000",
            "--page-size",
            "4",
            "--parallelism",
            "2");
    assertThat(del.code()).as(del.err()).isZero();
    assertThat(del.out()).contains("deleted 10 item(s)");
    assertThat(del.err()).contains("deleting [");
    assertThat(run("scan").out().lines()).hasSize(10).allMatch(l -> l.contains("even"));
    Cli.Result bad =
        run("delete-where", "--index", "byKind", "--partition", "even", "--parallelism", "0");
    assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).contains("--parallelism must be 1 to 256");
    assertThat(run("scan").out().lines()).hasSize(10);
  }

  @Test
  void deleteWhereResumesFromAToken() {
    putEvents(12);
    // interrupt a job after its first page, as a crash would, keeping its last resume token
    String[] token = {null};
    try (Stowage store =
        Stowage.builder(Backends.driver(StoreLocation.parse(STORE)))
            .cursorKeys(CursorKeys.load(null))
            .build()) {
      Table t =
          store.ensureTable(
              TableSpec.builder(
                      "events",
                      KeySchema.of("feed", AttributeType.STRING, "at", AttributeType.NUMBER))
                  .index("byKind", List.of("kind"), List.of("at"))
                  .build());
      DeleteJob job =
          t.deleteWhere(
              Query.index("byKind").partition(AttributeValue.of("even")).build(),
              new DeleteJob.Options(
                  0,
                  2,
                  false,
                  p -> {
                    token[0] = p.resumeToken();
                    throw new IllegalStateException("crash");
                  }));
      assertThatThrownBy(job::run).hasMessage("crash");
    }
    assertThat(run("scan").out().lines()).hasSize(10);
    Cli.Result resumed = run("delete-where", "--resume", token[0], "--page-size", "2");
    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(resumed.out()).contains("deleted 6 item(s)");
    assertThat(run("scan").out().lines()).hasSize(6).allMatch(l -> l.contains("odd"));

    Cli.Result bad = run("delete-where", "--resume", "not-a-token");
    assertThat(bad.code()).isEqualTo(ExitCode.USAGE);
    assertThat(bad.err()).startsWith("stowage: ");
  }

  @Test
  void namedStoresComeFromTheConfigFile() throws Exception {
    Path spec = dir.resolve("events.json");
    Files.writeString(
        spec,
        "{\"key\":\"feed:S\",\"sort\":\"at:N\",\"indexes\":[{\"name\":\"byKind\",\"partition\":[\"kind\"],\"sort\":[\"at\"]}]}");
    Path config = dir.resolve("stowage.json");
    Files.writeString(
        config,
        "{\"stores\":{\"dev\":{\"uri\":\"memory://events?store=cfg&namespace=dev\",\"spec\":\"events.json\"}}}");
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            "dev",
            "--config",
            config.toString(),
            "--create-table",
            "--item",
            "{\"feed\":\"a\",\"at\":1}");
    assertThat(put.code()).as(put.err()).isZero();
    Cli.Result get =
        Cli.run(
            "get",
            "--store",
            "dev",
            "--config",
            config.toString(),
            "--key",
            "{\"feed\":\"a\",\"at\":1}");
    assertThat(get.out()).contains("\"feed\":\"a\"");
    // another namespace of the same store does not see it
    Cli.Result root =
        Cli.run(
            "get",
            "--store",
            "memory://events?store=cfg",
            "--spec",
            spec.toString(),
            "--key",
            "{\"feed\":\"a\",\"at\":1}");
    assertThat(root.code()).isEqualTo(1);
  }

  @Test
  void noCommandCreatesATableItWasNotAskedTo() {
    String[][] readOnly = {
      {"get", "--key", "{\"feed\":\"f\",\"at\":1}"},
      {"scan"},
      {"query", "--partition", "f"},
      {"delete-where", "--index", "byKind", "--partition", "odd", "--dry-run"},
      {"put", "--item", "{\"feed\":\"f\",\"at\":1}"},
    };
    for (String[] cmd : readOnly) {
      String[] all = new String[cmd.length + SPEC.length + 1];
      all[0] = cmd[0];
      all[1] = "--store=" + STORE;
      System.arraycopy(SPEC, 0, all, 2, SPEC.length);
      System.arraycopy(cmd, 1, all, 2 + SPEC.length, cmd.length - 1);
      Cli.Result r = Cli.run(all);
      assertThat(r.code()).as(String.join(" ", all) + ": " + r.err()).isEqualTo(1);
      assertThat(r.err())
          .as(cmd[0])
          .contains("table 'events' does not exist")
          .contains("--create-table")
          .doesNotContain("Stowage.ensureTable");
      assertThat(r.err().split("does not exist", -1)).as("said once").hasSize(2);
    }
    putEvents(2);
    assertThat(run("get", "--key", "{\"feed\":\"f\",\"at\":1}").code()).isZero();
  }

  @Test
  void clearErrorsAndExitCodes() {
    Cli.Result badUri = Cli.run("get", "--store", "Orders!", "--pk", "id:S", "--key", "x");
    assertThat(badUri.code()).isEqualTo(2);
    assertThat(badUri.err()).contains("neither a store URI, nor a named store");
    // A bare table name is a table of the default local store (here, in the test's home).
    Cli.Result local = Cli.run("get", "--store", "orders", "--pk", "id:S", "--key", "x");
    assertThat(local.code()).isEqualTo(1);
    assertThat(local.err()).contains("table 'orders' does not exist");
    Cli.Result scheme = Cli.run("get", "--store", "mongo://orders", "--pk", "id:S", "--key", "x");
    assertThat(scheme.code()).isEqualTo(2);
    assertThat(scheme.err()).contains("unknown store scheme 'mongo://'");
    Cli.Result noSpec = Cli.run("get", "--store", "memory://t1", "--key", "x");
    assertThat(noSpec.code()).isEqualTo(2);
    assertThat(noSpec.err()).contains("no table spec").contains("--pk name:TYPE");
    Cli.Result badJson = run("put", "--item", "{\"feed\":\"f\",\"at\":1,}");
    assertThat(badJson.code()).isEqualTo(2);
    assertThat(badJson.err()).contains("item 1: invalid JSON at offset");
    Cli.Result badType = Cli.run("get", "--store", "memory://tt", "--pk", "id:X", "--key", "x");
    assertThat(badType.code()).isEqualTo(2);
    assertThat(badType.err()).contains("must be S (string), N (number) or B (binary)");
    Cli.Result param = Cli.run("scan", "--store", "memory://things?colour=red", "--pk", "id:S");
    assertThat(param.code()).isEqualTo(2);
    assertThat(param.err()).contains("unknown parameter 'colour'");
    Cli.Result unknown = Cli.run("frobnicate");
    assertThat(unknown.code()).isEqualTo(2);
    Cli.Result negative =
        Cli.run("scan", "--store", "memory://tt", "--pk", "id:S", "--limit", "-5");
    assertThat(negative.code()).isEqualTo(2);
    assertThat(negative.err()).contains("--limit must be 0 or more, was -5");
  }

  @Test
  void everyCommandHasHelp() {
    for (String c :
        new String[] {
          "tour",
          "get",
          "put",
          "query",
          "scan",
          "delete-where",
          "migrate",
          "sweep",
          "reencrypt",
          "repair-indexes"
        }) {
      Cli.Result r = Cli.run(c, "--help");
      assertThat(r.code()).as(c).isZero();
      assertThat(r.out()).as(c).contains("Usage: stowage " + c);
    }
    assertThat(Cli.run("--help").out()).contains("tour").contains("migrate");
  }
}
