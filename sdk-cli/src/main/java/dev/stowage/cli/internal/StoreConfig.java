package dev.stowage.cli.internal;

import dev.stowage.TableSpec;
import dev.stowage.console.internal.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a command's table lives: the store URI, the blob store, the key source and the table spec,
 * resolved from flags or from a named entry of the config file ({@code --config}, else {@code
 * $STOWAGE_CONFIG}, else {@code ./stowage.json} when present). Without a config file, a bare table
 * name is a table of the default local store ({@link Backends#defaultStore}). Immutable.
 *
 * @param store the table store
 * @param blobs the blob store, or null
 * @param keyset a Tink keyset file, or null
 * @param spec the table spec, or null if none was given
 * @param cursorKeyset the keyset sealing cursors, or null for the default (see {@link CursorKeys})
 */
public record StoreConfig(
    StoreLocation store, StoreLocation blobs, Path keyset, TableSpec spec, Path cursorKeyset) {

  /**
   * Resolves a store reference: a URI, or the name of a store in the config file. Flag values
   * (non-null) override the config entry's.
   */
  public static StoreConfig resolve(
      String ref, Path configFile, String blobsFlag, Path keysetFlag, SpecSource specFlag) {
    if (ref == null) {
      throw new CliException("no store given");
    }
    if (ref.contains("://")) {
      StoreLocation loc = StoreLocation.parse(ref);
      return new StoreConfig(
          loc,
          blobsFlag == null ? Backends.defaultBlobs(loc) : StoreLocation.parse(blobsFlag),
          keysetFlag,
          specFlag.spec(loc.authority()),
          null);
    }
    Path file = configFile;
    if (file == null && System.getenv("STOWAGE_CONFIG") != null) {
      file = Path.of(System.getenv("STOWAGE_CONFIG"));
    }
    if (file == null && Files.exists(Path.of("stowage.json"))) {
      file = Path.of("stowage.json");
    }
    if (file == null) {
      if (TableSpec.isValidName(ref)) {
        return resolve(Backends.defaultStore(ref), null, blobsFlag, keysetFlag, specFlag);
      }
      throw new CliException(
          "'"
              + ref
              + "' is neither a store URI, nor a named store (no config file: use --config), nor a"
              + " table name");
    }
    Map<?, ?> entry = entry(file, ref);
    Object uri = entry.get("uri");
    if (!(uri instanceof String u)) {
      throw new CliException("store '" + ref + "' in " + file + " has no \"uri\"");
    }
    StoreLocation loc = StoreLocation.parse(u);
    String blobs = blobsFlag != null ? blobsFlag : (String) entry.get("blobs");
    Path keyset =
        keysetFlag != null
            ? keysetFlag
            : entry.get("keyset") == null
                ? null
                : file.toAbsolutePath().getParent().resolve((String) entry.get("keyset"));
    TableSpec spec = specFlag.spec(loc.authority());
    if (spec == null && entry.get("spec") != null) {
      Object s = entry.get("spec");
      try {
        spec =
            s instanceof String path
                ? Specs.read(file.toAbsolutePath().getParent().resolve(path), loc.authority())
                : Specs.fromJson(s, loc.authority());
      } catch (IllegalArgumentException e) {
        throw new CliException("spec of store '" + ref + "' in " + file + ": " + e.getMessage());
      }
    }
    Path cursorKeyset =
        entry.get("cursorKeyset") == null
            ? null
            : file.toAbsolutePath().getParent().resolve((String) entry.get("cursorKeyset"));
    return new StoreConfig(
        loc,
        blobs == null ? Backends.defaultBlobs(loc) : StoreLocation.parse(blobs),
        keyset,
        spec,
        cursorKeyset);
  }

  private static Map<?, ?> entry(Path file, String name) {
    Object json;
    try {
      json = Json.parse(Files.readString(file));
    } catch (IOException e) {
      throw new CliException("cannot read config file " + file + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new CliException("config file " + file + ": " + e.getMessage());
    }
    if (json instanceof Map<?, ?> m
        && m.get("stores") instanceof Map<?, ?> stores
        && stores.get(name) instanceof Map<?, ?> entry) {
      return entry;
    }
    throw new CliException(
        "config file "
            + file
            + " has no store named '"
            + name
            + "' (a table of the default local store is local://"
            + name
            + ")");
  }

  /** The table spec, or a usage error if none was given. */
  public TableSpec requireSpec() {
    if (spec == null) {
      throw new CliException(
          "no table spec for "
              + store.redacted()
              + ": Stowage keeps no catalogue of tables, so give the table's key with --pk"
              + " name:TYPE (and --sk name:TYPE if it has a sort key) or a spec file with --spec"
              + " FILE");
    }
    return spec;
  }

  /** Supplies a spec from flags, given the table name from the URI. */
  @FunctionalInterface
  public interface SpecSource {
    /** The spec, or null if the flags give none. */
    TableSpec spec(String tableFromUri);
  }
}
