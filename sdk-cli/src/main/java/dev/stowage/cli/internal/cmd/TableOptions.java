package dev.stowage.cli.internal.cmd;

import dev.stowage.TableSpec;
import dev.stowage.cli.internal.Backends;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.cli.internal.Specs;
import dev.stowage.cli.internal.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** The flags naming a table: store, blob store, keys, spec. */
public final class TableOptions {
  @Option(
      names = {"-s", "--store"},
      paramLabel = "URI|NAME",
      description =
          "The table's store: local://TABLE (a SQLite file under ~/.stowage or $STOWAGE_HOME,"
              + " kept between commands), memory://TABLE, dynamodb://TABLE?region=…,"
              + " datastore://KIND?project=…, azure://TABLE?connection=…, or a store named in the"
              + " config file. A bare TABLE without a config file, or no --store at all (the"
              + " table named by --spec), is a table of the local store default.db.")
  String store;

  @Option(names = "--blobs", paramLabel = "URI", description = "Overflow blob store URI.")
  String blobs;

  @Option(names = "--config", paramLabel = "FILE", description = "Config file with named stores.")
  Path config;

  @Option(names = "--spec", paramLabel = "FILE", description = "Table spec file (JSON).")
  Path specFile;

  @Option(names = "--pk", paramLabel = "NAME:TYPE", description = "Partition key (TYPE S, N, B).")
  String pk;

  @Option(names = "--sk", paramLabel = "NAME:TYPE", description = "Sort key (TYPE S, N, B).")
  String sk;

  @Option(
      names = "--spec-index",
      paramLabel = "NAME=P1,P2/S1,S2",
      description = "A secondary index (repeatable); add /keys for a keys-only projection.")
  List<String> indexes = new ArrayList<>();

  @Option(
      names = "--adopt",
      paramLabel = "NAME",
      description =
          "Adopt the existing table, kind or Azure table NAME that other tools wrote: use it as"
              + " it is, in its native key layout.")
  String adopt;

  @Option(names = "--compressed", split = ",", description = "Compressed attributes.")
  List<String> compressed = new ArrayList<>();

  @Option(names = "--encrypted", split = ",", description = "Encrypted attributes.")
  List<String> encrypted = new ArrayList<>();

  @Option(
      names = "--cursor-keyset",
      paramLabel = "FILE",
      description =
          "Tink keyset sealing printed cursors (default: ~/.stowage/cursor-keyset.json, created"
              + " on first use).")
  Path cursorKeyset;

  @Option(
      names = "--keyset",
      paramLabel = "FILE",
      description = "Tink JSON keyset for encrypted attributes (needed to read or write them).")
  Path keyset;

  /** Resolves the flags. */
  public StoreConfig resolve() {
    String ref = store;
    if (ref == null) {
      TableSpec named = specFile == null ? null : Specs.read(specFile, null);
      if (named == null) {
        throw new CliException(
            "no table: give --store TABLE (a table of the local store), a store URI such as"
                + " memory://orders, or --spec FILE naming the table");
      }
      ref = Backends.defaultStore(named.name());
    }
    StoreConfig c = StoreConfig.resolve(ref, config, blobs, keyset, this::specFromFlags);
    return cursorKeyset == null
        ? c
        : new StoreConfig(c.store(), c.blobs(), c.keyset(), c.spec(), cursorKeyset);
  }

  /** Resolves the flags and opens the store. The caller closes it. */
  public OpenedStore open() {
    return OpenedStore.open(resolve());
  }

  private TableSpec specFromFlags(String tableFromUri) {
    if (specFile != null) {
      if (pk != null) {
        throw new CliException("give either --spec or --pk/--sk/--spec-index, not both");
      }
      return Specs.read(specFile, tableFromUri);
    }
    if (pk == null) {
      return null;
    }
    if (tableFromUri == null || tableFromUri.isEmpty()) {
      throw new CliException(
          "the store URI must name the table, e.g. local://orders or memory://orders");
    }
    try {
      return Specs.build(tableFromUri, pk, sk, indexes, compressed, encrypted, null, 0, adopt);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage());
    }
  }
}
