package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.cli.internal.Backends;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrateCommandTest {
  @TempDir Path dir;
  private Path keyset;

  @BeforeEach
  void fresh() throws Exception {
    Backends.resetMemory();
    System.setProperty("stowage.home", dir.resolve("home").toString());
    keyset = Keysets.write(dir.resolve("keys.json"), Keysets.generate());
  }

  @Test
  void migratesBetweenStoresAndNamespacesWithoutKeysThenVerifies() throws Exception {
    Path spec = dir.resolve("orders.json");
    Files.writeString(
        spec,
        "{\"name\":\"orders\",\"key\":\"id:S\",\"indexes\":[\"byShop=shop/day\"],"
            + "\"encrypted\":[\"card\"],\"compressed\":[\"notes\"]}");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 300; i++) {
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

    String to = "memory://orders?store=new&namespace=copy";
    Path checkpoint = dir.resolve("orders.checkpoint");
    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--to",
            to,
            "--spec",
            spec.toString(),
            "--checkpoint",
            checkpoint.toString(),
            "--page-size",
            "50",
            "--parallelism",
            "3",
            "--segments",
            "5");
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("migrating memory:orders -> memory:copy.orders")
        .contains("copied 301 item(s), 1 blob(s)")
        .contains("verification: source 301, target 301, missing 0, extra 0, different 0 -> OK");
    assertThat(m.err()).contains("copying");
    assertThat(Files.readAllLines(checkpoint)).anyMatch(l -> l.startsWith("page\t"));
    assertThat(Files.readAllLines(checkpoint)).anyMatch(l -> l.startsWith("plan\t5\t"));

    Cli.Result get =
        Cli.run(
            "get",
            "--store",
            to,
            "--spec",
            spec.toString(),
            "--keyset",
            keyset.toString(),
            "--key",
            "o042");
    assertThat(get.out()).contains("\"card\":\"4111-0042\"");
    Cli.Result big =
        Cli.run(
            "get",
            "--store",
            to,
            "--spec",
            spec.toString(),
            "--keyset",
            keyset.toString(),
            "--key",
            "big");
    assertThat(big.out()).contains("z".repeat(700_000));
    Cli.Result query =
        Cli.run(
            "query",
            "--store",
            to,
            "--spec",
            spec.toString(),
            "--keyset",
            keyset.toString(),
            "--index",
            "byShop",
            "--partition",
            "s2",
            "--all");
    assertThat(query.out().lines()).hasSize(75);

    // run again with the same checkpoint: everything is already done
    Cli.Result again =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--to",
            to,
            "--spec",
            spec.toString(),
            "--checkpoint",
            checkpoint.toString(),
            "--page-size",
            "50");
    assertThat(again.out()).contains("copied 0 item(s) (301 done by an earlier run)");
  }

  @Test
  void anAdoptedSourceIsCopiedIntoATargetWithItsOwnSpecAndIndexes() throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      lines.append(
          i % 4 == 0
              ? String.format("{\"id\":\"o%03d\"}%n", i)
              : String.format(
                  "{\"id\":\"o%03d\",\"status\":\"%s\"}%n", i, i % 2 == 0 ? "open" : "done"));
    }
    Path file = dir.resolve("orders.jsonl");
    Files.writeString(file, lines);
    String from = "memory://orders?store=old";
    Cli.Result put =
        Cli.run(
            "put", "--store", from, "--pk", "id:S", "--create-table", "--file", file.toString());
    assertThat(put.code()).as(put.err()).isZero();
    Path targetSpec = dir.resolve("target.json");
    Files.writeString(targetSpec, "{\"key\":\"id:S\",\"indexes\":[\"byStatus=status/id\"]}");
    Path checkpoint = dir.resolve("adopted.checkpoint");
    String to = "memory://orders?store=new&namespace=copy";
    Cli.Result m =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--from-adopt",
            "Legacy.Orders",
            "--pk",
            "id:S",
            "--to",
            to,
            "--to-spec",
            targetSpec.toString(),
            "--checkpoint",
            checkpoint.toString());
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("migrating memory:orders (adopted 'Legacy.Orders') -> memory:copy.orders")
        .contains("copied 120 item(s)")
        .contains("verification: source 120, target 120, missing 0, extra 0, different 0 -> OK");
    assertThat(Files.readAllLines(checkpoint).get(0))
        .startsWith("stowage-migrate\t3\tmemory\t")
        .contains("\torders\tLegacy.Orders\tmemory\t")
        .endsWith("\tcopy\torders\t");
    // the target's index holds every item that has a status, though the source had no index
    Cli.Result open =
        Cli.run(
            "query",
            "--store",
            to,
            "--spec",
            targetSpec.toString(),
            "--index",
            "byStatus",
            "--partition",
            "open",
            "--all");
    assertThat(open.code()).as(open.err()).isZero();
    assertThat(open.out().lines()).hasSize(30);

    // --to-adopt copies into an adopted table of the target store, recorded in the checkpoint
    Path toAdopted = dir.resolve("to-adopted.checkpoint");
    Cli.Result intoAdopted =
        Cli.run(
            "migrate",
            "--from",
            to,
            "--spec",
            targetSpec.toString(),
            "--to",
            "memory://orders?store=fourth",
            "--to-adopt",
            "Legacy.Copy",
            "--checkpoint",
            toAdopted.toString());
    assertThat(intoAdopted.code()).as(intoAdopted.err() + intoAdopted.out()).isZero();
    assertThat(intoAdopted.out())
        .contains("-> memory:orders (adopted 'Legacy.Copy')")
        .contains("different 0 -> OK");
    assertThat(Files.readAllLines(toAdopted).get(0)).endsWith("\torders\tLegacy.Copy");

    // an adopted name the spec contradicts, and a target spec of another key, are refused
    Path adoptingSpec = dir.resolve("adopting.json");
    Files.writeString(adoptingSpec, "{\"key\":\"id:S\",\"adopt\":\"Other\"}");
    Cli.Result contradiction =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--spec",
            adoptingSpec.toString(),
            "--from-adopt",
            "Legacy.Orders",
            "--to",
            "memory://orders?store=third");
    assertThat(contradiction.code()).isEqualTo(2);
    assertThat(contradiction.err())
        .contains("--from-adopt Legacy.Orders contradicts the spec, which adopts 'Other'");
    Path otherKey = dir.resolve("other-key.json");
    Files.writeString(otherKey, "{\"key\":\"id:N\"}");
    Cli.Result keyDiffers =
        Cli.run(
            "migrate",
            "--from",
            from,
            "--pk",
            "id:S",
            "--to",
            "memory://orders?store=third",
            "--to-spec",
            otherKey.toString());
    assertThat(keyDiffers.code()).isEqualTo(2);
    assertThat(keyDiffers.err()).contains("partition key 'id' is STRING vs NUMBER");
  }

  private static Cli.Result migrate(String from, String to, Path checkpoint) {
    return Cli.run(
        "migrate",
        "--from",
        from,
        "--to",
        to,
        "--pk",
        "id:S",
        "--checkpoint",
        checkpoint.toString(),
        "--page-size",
        "10");
  }

  @Test
  void checkpointForAnotherSourceOrTargetIsRefusedBeforeAnythingIsWritten() throws Exception {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append(String.format("{\"id\":\"o%03d\"}%n", i));
    }
    Path file = dir.resolve("orders.jsonl");
    Files.writeString(file, lines);
    String from = "memory://orders?store=old";
    Cli.Result put =
        Cli.run(
            "put", "--store", from, "--pk", "id:S", "--create-table", "--file", file.toString());
    assertThat(put.code()).as(put.err()).isZero();
    Path checkpoint = dir.resolve("orders.checkpoint");
    Cli.Result first = migrate(from, "memory://orders?store=new", checkpoint);
    assertThat(first.code()).as(first.err() + first.out()).isZero();
    assertThat(first.out()).contains("copied 200 item(s)");
    String written = Files.readString(checkpoint);

    // Another store of the same backend, namespace and table: before, its 200 items were skipped.
    Cli.Result elsewhere = migrate(from, "memory://orders?store=other", checkpoint);
    assertThat(elsewhere.code()).isEqualTo(2);
    assertThat(elsewhere.err())
        .startsWith("stowage: checkpoint " + checkpoint + " belongs to another migration:")
        .contains("the target location differs")
        .containsPattern(
            "It was written for memory instance \\d+ namespace '' table orders -> memory"
                + " instance \\d+ namespace '' table orders, not for memory instance \\d+"
                + " namespace '' table orders -> memory instance \\d+ namespace '' table orders;")
        .contains("start afresh with another checkpoint file (or delete this one)");
    assertThat(elsewhere.out()).doesNotContain("copied");
    Cli.Result otherScan =
        Cli.run("scan", "--store", "memory://orders?store=other", "--pk", "id:S");
    // the refused run did not even create the other store's table
    assertThat(otherScan.code()).isEqualTo(1);
    assertThat(otherScan.err()).contains("table 'orders' does not exist");

    Cli.Result otherNamespace =
        migrate(from, "memory://orders?store=new&namespace=copy", checkpoint);
    assertThat(otherNamespace.code()).isEqualTo(2);
    assertThat(otherNamespace.err()).contains("the target namespace differs");
    Cli.Result otherTable = migrate(from, "memory://orders2?store=new", checkpoint);
    assertThat(otherTable.code()).isEqualTo(2);
    assertThat(otherTable.err())
        .contains("the target table differs")
        .contains("namespace '' table orders2;");
    assertThat(Files.readString(checkpoint)).isEqualTo(written);

    // the right pair still resumes
    Cli.Result again = migrate(from, "memory://orders?store=new", checkpoint);
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).contains("copied 0 item(s) (200 done by an earlier run)");
  }

  @Test
  void migratingATableOntoItselfIsRefused() {
    Cli.Result put =
        Cli.run(
            "put",
            "--store",
            "memory://orders",
            "--pk",
            "id:S",
            "--create-table",
            "--item",
            "{\"id\":\"a\"}");
    assertThat(put.code()).as(put.err()).isZero();
    Cli.Result self =
        Cli.run("migrate", "--from", "memory://orders", "--to", "memory://orders", "--pk", "id:S");
    assertThat(self.code()).isEqualTo(2);
    assertThat(self.err())
        .containsPattern(
            "^stowage: the source and the target are the same table \\(memory instance \\d+"
                + " namespace '' table orders\\): a table cannot be migrated onto itself")
        .contains("name another store, namespace or table as the target");
    assertThat(self.out()).isEmpty();
    Cli.Result otherNamespace =
        Cli.run(
            "migrate",
            "--from",
            "memory://orders",
            "--to",
            "memory://orders?namespace=copy",
            "--pk",
            "id:S");
    assertThat(otherNamespace.code()).as(otherNamespace.err()).isZero();
  }

  @Test
  void migrateErrors() {
    Cli.Result noSpec =
        Cli.run("migrate", "--from", "memory://t1x", "--to", "memory://t1x?store=b");
    assertThat(noSpec.code()).isEqualTo(2);
    assertThat(noSpec.err()).contains("no table spec");
    Cli.Result badTo =
        Cli.run("migrate", "--from", "memory://abc", "--to", "nowhere://abc", "--pk", "id:S");
    assertThat(badTo.code()).isEqualTo(2);
    assertThat(badTo.err()).contains("unknown store scheme 'nowhere://'");
  }
}
