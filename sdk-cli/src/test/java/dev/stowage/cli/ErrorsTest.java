package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.UnavailableException;
import dev.stowage.cli.internal.Errors;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every failure is one line starting with {@code stowage:} and a documented exit code. */
class ErrorsTest {
  private static final String STORE = "--store=memory://errors?store=errors-test";

  private static void oneLine(Cli.Result r, int code) {
    assertThat(r.code()).as(r.err()).isEqualTo(code);
    assertThat(r.err()).startsWith("stowage: ");
    assertThat(r.err().strip().lines()).as(r.err()).hasSize(1);
  }

  @BeforeEach
  void tableExists() {
    Cli.Result created =
        Cli.run("put", STORE, "--pk", "id:S", "--create-table", "--item", "{\"id\":\"seed\"}");
    assertThat(created.code()).as(created.err()).isZero();
  }

  @Test
  void aMissingFileIsAUsageError() {
    Cli.Result r = Cli.run("put", STORE, "--pk", "id:S", "--file", "/no/such/items.jsonl");
    oneLine(r, ExitCode.USAGE);
    assertThat(r.err()).contains("no such file: /no/such/items.jsonl");
  }

  @Test
  void usageErrorsAreOneLineWithAPointerToHelp() {
    Cli.Result unknown = Cli.run("get", STORE, "--pk", "id:S", "--key", "u1", "--bogus");
    oneLine(unknown, ExitCode.USAGE);
    assertThat(unknown.err()).contains("--bogus").contains("(see 'stowage get --help')");
    oneLine(Cli.run("get", STORE), ExitCode.USAGE);
    Cli.Result command = Cli.run("frobnicate");
    oneLine(command, ExitCode.USAGE);
    assertThat(command.err())
        .startsWith("stowage: unknown command 'frobnicate'; the commands are tour, get, put,")
        .endsWith("(see 'stowage --help')" + System.lineSeparator());
  }

  @Test
  void aMissingIndexNamesTheCommandsThatAddAndFillIt() {
    Cli.Result r = Cli.run("get", STORE, "--pk", "id:S", "--spec-index", "byX=x", "--key", "seed");
    oneLine(r, ExitCode.USAGE);
    assertThat(r.err())
        .contains(
            "index 'byX' is missing (`stowage put --create-table` adds it; `stowage"
                + " repair-indexes` indexes the items written before)");
  }

  @Test
  void anIndexTheSpecDoesNotDeclareIsAUsageError() {
    Cli.Result q = Cli.run("query", STORE, "--pk", "id:S", "--partition", "o1", "--index", "nope");
    oneLine(q, ExitCode.USAGE);
    assertThat(q.err())
        .contains("the table's spec declares no index 'nope'; declare it with --spec-index");
    Cli.Result d =
        Cli.run("delete-where", STORE, "--pk", "id:S", "--partition", "o1", "--index", "nope");
    oneLine(d, ExitCode.USAGE);
    assertThat(d.err()).contains("declares no index 'nope'");
  }

  @Test
  void aKeysetFileThatCannotBeUsedIsAUsageError(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing.json");
    Cli.Result absent =
        Cli.run("get", STORE, "--pk", "id:S", "--key", "seed", "--keyset", missing.toString());
    oneLine(absent, ExitCode.USAGE);
    assertThat(absent.err()).contains("keyset file " + missing + " does not exist");

    Path notAKeyset = Files.writeString(dir.resolve("keys.json"), "{}");
    Cli.Result malformed =
        Cli.run("get", STORE, "--pk", "id:S", "--key", "seed", "--keyset", notAKeyset.toString());
    oneLine(malformed, ExitCode.USAGE);
    assertThat(malformed.err())
        .contains("keyset file " + notAKeyset + " is not a Tink AEAD keyset in cleartext JSON")
        .contains("tinkey create-keyset");
    assertThat(malformed.err().split("keyset file", -1)).as(malformed.err()).hasSize(2);
  }

  @Test
  void theSameWrongKeyTypeIsTheSameErrorFromEveryCommand() {
    Cli.Result put = Cli.run("put", STORE, "--pk", "id:S", "--item", "{\"id\":1}");
    Cli.Result get = Cli.run("get", STORE, "--pk", "id:S", "--key", "{\"id\":1}");
    oneLine(put, ExitCode.USAGE);
    oneLine(get, ExitCode.USAGE);
    assertThat(put.err()).contains("must be STRING but is NUMBER");
    assertThat(get.err()).contains("must be STRING but is NUMBER");
  }

  @Test
  void duplicateKeysInAnItemAreRefused() {
    Cli.Result r = Cli.run("put", STORE, "--pk", "id:S", "--item", "{\"id\":\"a\",\"id\":\"b\"}");
    oneLine(r, ExitCode.USAGE);
    assertThat(r.err()).contains("Duplicate field 'id'");
  }

  @Test
  void versionIsPrintedByEveryCommand() {
    for (String[] args : new String[][] {{"--version"}, {"get", "--version"}, {"migrate", "-V"}}) {
      Cli.Result r = Cli.run(args);
      assertThat(r.code()).isZero();
      assertThat(r.out()).matches("(?s)stowage \\d+\\.\\d+\\.\\d+.*\\nJava .*");
    }
  }

  @Test
  void failuresMapToTheirCodes() {
    assertThat(Errors.report(new UnavailableException("down", null)).code())
        .isEqualTo(ExitCode.FAILURE);
    assertThat(Errors.report(new UncheckedIOException(new NoSuchFileException("x"))))
        .isEqualTo(new Errors.Report(ExitCode.USAGE, "no such file: x"));
    Errors.Report bug = Errors.report(new NullPointerException("oops\nsecond line"));
    assertThat(bug.code()).isEqualTo(ExitCode.INTERNAL);
    assertThat(bug.message()).isEqualTo("unexpected error: java.lang.NullPointerException: oops");
  }
}
