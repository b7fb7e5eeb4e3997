package dev.stowage.console.internal;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.codec.Codecs;
import dev.stowage.overflow.BlobStore;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The stores and tables a console shows, each table opened once and numbered in the order given.
 * Immutable after construction; thread-safe.
 */
public final class Catalog {
  private final List<StoreEntry> stores;
  private final List<TableEntry> tables = new ArrayList<>();

  /** Opens every table of every store (creating nothing). */
  public Catalog(List<StoreEntry> stores) {
    this.stores = List.copyOf(stores);
    for (StoreEntry s : this.stores) {
      for (TableSpec spec : s.tables()) {
        tables.add(new TableEntry(tables.size(), s, spec, s.stowage().table(spec)));
      }
    }
  }

  /**
   * The store with this number (its place in {@link #stores()}). @throws NoSuchElementException if
   * none
   */
  public StoreEntry store(String id) {
    try {
      int i = Integer.parseInt(id);
      if (i >= 0 && i < stores.size()) {
        return stores.get(i);
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw new NoSuchElementException("no store " + id);
  }

  /** The stores, in the order given. */
  public List<StoreEntry> stores() {
    return stores;
  }

  /** Every table, numbered from 0. */
  public List<TableEntry> tables() {
    return List.copyOf(tables);
  }

  /** The table with this number. @throws NoSuchElementException if none */
  public TableEntry table(String id) {
    try {
      int i = Integer.parseInt(id);
      if (i >= 0 && i < tables.size()) {
        return tables.get(i);
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw new NoSuchElementException("no table " + id);
  }

  /**
   * One store as given to the console builder.
   *
   * @param label its name in the console
   * @param stowage the store, in its namespace
   * @param blobs the blob store it overflows to, or null (migration jobs copy blobs through it)
   * @param codecs the codecs it was built with (keys decrypt values for display)
   * @param tables the specs of its tables to show
   */
  public record StoreEntry(
      String label, Stowage stowage, BlobStore blobs, Codecs codecs, List<TableSpec> tables) {}

  /**
   * One opened table.
   *
   * @param id its number in the console
   * @param store its store
   * @param spec its spec
   * @param table the opened table
   */
  public record TableEntry(int id, StoreEntry store, TableSpec spec, Table table) {}
}
