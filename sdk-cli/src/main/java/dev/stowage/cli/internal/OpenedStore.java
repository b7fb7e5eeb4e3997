package dev.stowage.cli.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.usage.UsageTracking;

/**
 * A store opened from a {@link StoreConfig}: its Stowage (in the URI's namespace), driver, blob
 * store and spec. Closing it closes the Stowage (and so the driver and blob store).
 */
public final class OpenedStore implements AutoCloseable {
  private final StoreConfig config;
  private final Stowage stowage;
  private final BlobStore blobs;
  private final Codecs codecs;

  private OpenedStore(StoreConfig config, Stowage stowage, BlobStore blobs, Codecs codecs) {
    this.config = config;
    this.stowage = stowage;
    this.blobs = blobs;
    this.codecs = codecs;
  }

  /** Opens the driver, blob store and keys a config names. */
  public static OpenedStore open(StoreConfig config) {
    return open(config, null);
  }

  /**
   * Opens the driver, blob store and keys a config names, tracking usage and hot keys when {@code
   * usage} is not null.
   */
  public static OpenedStore open(StoreConfig config, UsageTracking usage) {
    String ns = config.store().namespace();
    if (!TableRef.isValidNamespace(ns)) {
      throw new CliException(
          "namespace '"
              + ns
              + "' must be 1 to 16 characters: a lowercase letter, then lowercase letters or"
              + " digits");
    }
    StorageDriver driver = Backends.driver(config.store());
    BlobStore blobs = null;
    try {
      blobs = config.blobs() == null ? null : Backends.blobStore(config.blobs());
      Stowage.Builder b =
          Stowage.builder(driver).namespace(ns).cursorKeys(CursorKeys.load(config.cursorKeyset()));
      if (blobs != null) {
        b.blobStore(blobs);
      }
      Codecs codecs =
          config.keyset() == null
              ? Codecs.defaults()
              : Codecs.builder().keys(Keys.load(config.keyset())).build();
      b.codecs(codecs);
      if (usage != null) {
        b.usageTracking(usage);
      }
      return new OpenedStore(config, b.build(), blobs, codecs);
    } catch (RuntimeException e) {
      driver.close();
      if (blobs != null) {
        blobs.close();
      }
      throw e;
    }
  }

  /** The resolved configuration. */
  public StoreConfig config() {
    return config;
  }

  /** The store, in the URI's namespace. */
  public Stowage stowage() {
    return stowage;
  }

  /** The codecs the store was built with (with the keyset's keys, if one was given). */
  public Codecs codecs() {
    return codecs;
  }

  /** The driver. */
  public StorageDriver driver() {
    return stowage.driver();
  }

  /** The blob store, or null. */
  public BlobStore blobs() {
    return blobs;
  }

  /** The spec the config names. @throws CliException if none */
  public TableSpec spec() {
    return config.requireSpec();
  }

  /** Opens the existing table; creates nothing. */
  public Table table() {
    try {
      return stowage.table(spec());
    } catch (NotFoundException e) {
      // The library's hint names Stowage.ensureTable; a command line user needs the flag instead
      // (and the one line, so the library's message is not repeated as a cause).
      String message = String.valueOf(e.getMessage());
      int hint = message.indexOf("; create it with Stowage.ensureTable");
      throw new NotFoundException(
          (hint < 0 ? message : message.substring(0, hint))
              + "; no command creates a table it was not asked to: `stowage put"
              + " --create-table` creates it");
    } catch (InvalidRequestException e) {
      // A table that disagrees with the spec: the library's remedies, in the commands that run
      // them (put --create-table calls ensureTable, repair-indexes backfills missing index values).
      String message = String.valueOf(e.getMessage());
      String commands =
          message
              .replace("Stowage.ensureTable", "`stowage put --create-table`")
              .replace("Table.backfillIndexes", "`stowage repair-indexes`");
      if (commands.equals(message)) {
        throw e;
      }
      throw new InvalidRequestException(commands);
    }
  }

  /** Opens the table, creating it and its indexes first if they do not exist. */
  public Table ensureTable() {
    return stowage.ensureTable(spec());
  }

  /** The driver-level layout of the table. */
  public TableLayout layout() {
    TableSpec s = spec();
    return new TableLayout(
        new TableRef(stowage.namespace(), s.name()),
        s.keySchema(),
        s.indexes().stream().map(IndexLayout::of).toList(),
        s.adoptedName().orElse(null),
        s.descendingQueries());
  }

  @Override
  public void close() {
    stowage.close();
  }
}
