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
            "--parallel",
            "3");
    assertThat(m.code()).as(m.err() + m.out()).isZero();
    assertThat(m.out())
        .contains("migrating memory:orders -> memory:copy.orders")
        .contains("copied 301 item(s), 1 blob(s)")
        .contains("verification: source 301, target 301, missing 0, extra 0, different 0 -> OK");
    assertThat(m.err()).contains("copying");
    assertThat(Files.readAllLines(checkpoint)).anyMatch(l -> l.startsWith("page\t"));

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
