package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import dev.stowage.cli.internal.Backends;
import dev.stowage.cli.internal.StoreLocation;
import dev.stowage.overflow.BlobStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands around stored forms: keys, encrypted values, overflow, sweep, re-encryption. */
class StorageCommandsTest {
  private static final String STORE = "memory://patients?store=storage";
  @TempDir Path dir;
  private Path keyset;
  private KeysetHandle handle;

  @BeforeEach
  void fresh() throws Exception {
    Backends.resetMemory();
    System.setProperty("stowage.home", dir.resolve("home").toString());
    handle = Keysets.generate();
    keyset = Keysets.write(dir.resolve("keys.json"), handle);
  }

  private Cli.Result run(String command, String... args) {
    List<String> all =
        new ArrayList<>(
            List.of(
                command,
                "--store",
                STORE,
                "--pk",
                "id:S",
                "--encrypted",
                "ssn",
                "--compressed",
                "notes"));
    all.addAll(List.of(args));
    return Cli.run(all.toArray(String[]::new));
  }

  /** Puts an item with {@code ssn} encrypted under the keyset in {@code keys}. */
  private void putEncrypted(Path keys, String json) {
    Cli.Result put = run("put", "--create-table", "--keyset", keys.toString(), "--item", json);
    assertThat(put.code()).as(put.err()).isZero();
  }

  @Test
  void encryptedValuesNeedTheKeysetAndRawShowsEnvelopes() {
    Cli.Result noKeys = run("put", "--create-table", "--item", "{\"id\":\"p1\",\"ssn\":\"123\"}");
    assertThat(noKeys.code()).isEqualTo(ExitCode.USAGE);
    assertThat(noKeys.err()).contains("missing keys (give --keyset FILE");

    String notes = "note ".repeat(2000);
    Cli.Result put =
        run(
            "put",
            "--keyset",
            keyset.toString(),
            "--item",
            "{\"id\":\"p1\",\"ssn\":\"123-45\",\"notes\":\"" + notes + "\"}");
    assertThat(put.code()).as(put.err()).isZero();

    Cli.Result get = run("get", "--keyset", keyset.toString(), "--key", "p1");
    assertThat(get.out()).contains("\"ssn\":\"123-45\"").contains(notes);

    Cli.Result withoutKeys = run("get", "--key", "p1");
    assertThat(withoutKeys.code()).isEqualTo(ExitCode.USAGE);
    assertThat(withoutKeys.err()).contains("missing keys (give --keyset FILE");

    Cli.Result raw = run("get", "--key", "p1", "--raw");
    assertThat(raw.code()).as(raw.err()).isZero();
    assertThat(raw.out())
        .contains("\"ssn\":{\"$b\":")
        .doesNotContain("123-45")
        .doesNotContain("note note");
  }

  @Test
  void oversizedItemsOverflowAndSweepDeletesOnlyOrphans() {
    String big = "x".repeat(600_000);
    Cli.Result put =
        run("put", "--create-table", "--item", "{\"id\":\"d1\",\"body\":\"" + big + "\"}");
    assertThat(put.code()).as(put.err()).isZero();
    assertThat(run("get", "--key", "d1", "--raw").out())
        .contains("stowage:ovf")
        .doesNotContain("xxxx");
    assertThat(run("get", "--key", "d1").out()).contains(big);

    BlobStore blobs = Backends.blobStore(StoreLocation.parse("memory://storage"));
    blobs.put("_root/patients/00000000000000000000000000000001", new byte[] {1, 2, 3});
    assertThat(blobs.list("_root/patients/").count()).isEqualTo(2);

    Cli.Result dry = run("sweep", "--grace", "PT0S", "--dry-run", "--parallelism", "3");
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out())
        .contains(
            "dry run: 2 blob(s) under _root/patients/: 1 referenced, 0 too young to judge, 1 orphaned");
    Cli.Result young = run("sweep", "--parallelism", "1");
    assertThat(young.out()).contains("1 referenced, 1 too young to judge, 0 orphaned, 0 deleted");
    Cli.Result sweep = run("sweep", "--grace", "PT0S");
    assertThat(sweep.out()).contains("1 orphaned, 1 deleted (3 B)");
    assertThat(blobs.list("_root/patients/").count()).isEqualTo(1);
    assertThat(run("get", "--key", "d1").out()).contains(big);
  }

  @Test
  void reencryptMovesValuesToTheNewPrimaryKey() throws Exception {
    for (int i = 0; i < 25; i++) {
      putEncrypted(keyset, "{\"id\":\"p" + i + "\",\"ssn\":\"s" + i + "\"}");
    }
    Path rotated = Keysets.write(dir.resolve("rotated.json"), Keysets.rotate(handle));
    Cli.Result dry =
        run("reencrypt", "--keyset", rotated.toString(), "--dry-run", "--page-size", "10");
    assertThat(dry.code()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("dry run: 25 item(s) scanned, 25 would be rewritten");
    Cli.Result r = run("reencrypt", "--keyset", rotated.toString());
    assertThat(r.out()).contains("25 item(s) scanned, 25 rewritten");
    Cli.Result again = run("reencrypt", "--keyset", rotated.toString());
    assertThat(again.out()).contains("25 item(s) scanned, 0 rewritten");
    // the new keyset reads everything; the old one alone no longer can
    assertThat(run("get", "--keyset", rotated.toString(), "--key", "p7").out())
        .contains("\"ssn\":\"s7\"");
    Cli.Result old = run("get", "--keyset", keyset.toString(), "--key", "p7");
    assertThat(old.code()).isEqualTo(1);
    assertThat(run("reencrypt").err()).contains("reencrypt needs the keys");
  }

  @Test
  void theKeysetCommandCreatesAndRotatesKeysetsTheOtherCommandsUse() throws Exception {
    Path made = dir.resolve("made.json");
    Cli.Result create = Cli.run("keyset", "--out", made.toString());
    assertThat(create.code()).as(create.err()).isZero();
    assertThat(java.nio.file.Files.getPosixFilePermissions(made))
        .containsExactlyInAnyOrder(
            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
    Cli.Result again = Cli.run("keyset", "--out", made.toString());
    assertThat(again.code()).isEqualTo(2);
    assertThat(again.err()).contains(made + " exists; give another --out, or --rotate");
    for (int i = 0; i < 3; i++) {
      putEncrypted(made, "{\"id\":\"p" + i + "\",\"ssn\":\"s" + i + "\"}");
    }
    String before = java.nio.file.Files.readString(made);

    Cli.Result rotate = Cli.run("keyset", "--out", made.toString(), "--rotate");
    assertThat(rotate.code()).as(rotate.err()).isZero();
    assertThat(rotate.out()).contains("a new primary key, 2 keys in all");
    // Values under the old key still read; re-encryption moves them all to the new primary.
    assertThat(run("get", "--keyset", made.toString(), "--key", "p1").out())
        .contains("\"ssn\":\"s1\"");
    assertThat(run("reencrypt", "--keyset", made.toString()).out())
        .contains("3 item(s) scanned, 3 rewritten");
    Path old = java.nio.file.Files.writeString(dir.resolve("old.json"), before);
    assertThat(run("get", "--keyset", old.toString(), "--key", "p1").code()).isEqualTo(1);

    Cli.Result missing =
        Cli.run("keyset", "--out", dir.resolve("none.json").toString(), "--rotate");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("does not exist");
  }

  @Test
  void readingEncryptedValuesWithoutDeclaringThemSaysHowToReadThem() {
    putEncrypted(keyset, "{\"id\":\"p1\",\"ssn\":\"s1\",\"name\":\"Ada\"}");
    Cli.Result get = Cli.run("get", "--store", STORE, "--pk", "id:S", "--key", "p1");
    assertThat(get.code()).as(get.err()).isZero();
    assertThat(get.out()).contains("\"ssn\":{\"$b\":\"9VMB").contains("\"name\":\"Ada\"");
    assertThat(get.err())
        .contains(
            "attribute 'ssn' holds values Stowage encrypted, shown as stored; to read them,"
                + " declare them (--encrypted ssn) and give --keyset FILE");
    Cli.Result query = Cli.run("query", "--store", STORE, "--pk", "id:S", "--partition", "p1");
    assertThat(query.err()).contains("attribute 'ssn' holds values Stowage encrypted");
    Cli.Result scan = Cli.run("scan", "--store", STORE, "--pk", "id:S");
    assertThat(scan.err()).contains("attribute 'ssn' holds values Stowage encrypted");
    // Declared and decrypted: nothing to say.
    Cli.Result declared = run("get", "--keyset", keyset.toString(), "--key", "p1");
    assertThat(declared.out()).contains("\"ssn\":\"s1\"");
    assertThat(declared.err()).doesNotContain("note:");
  }
}
