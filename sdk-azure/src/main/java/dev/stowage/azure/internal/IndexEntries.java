package dev.stowage.azure.internal;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Index entities: Azure has no secondary indexes, so the driver keeps, for every item version
 * carrying an index's synthesized attributes, a forward row in the index table and, on tables that
 * keep them ({@link Tables#reverseRows}), a reverse row for descending index queries (see {@link
 * AzureKeys}). Both rows of an entry share a partition and are written and deleted in one
 * transaction.
 *
 * <p>Each item version has a random nonce, stored on the item and in its entries' RowKeys. An entry
 * is valid only while the item's nonce equals the entry's. Its writer writes it before the item
 * (see {@link ItemWriter}), so for a while an entry of a write in flight does not match the item
 * either: each entry also records the version its write replaces ({@link #REPLACES}: that item's
 * ETag, or empty for none), on which the item write is conditional. An entry that does not match is
 * garbage forever only once the item is no longer that version (the write landed and was replaced,
 * or can no longer land): only then may read repair delete it ({@link #isGarbage}). Entries without
 * the property (written before it existed) are garbage as soon as they do not match. One whose item
 * is still the version it names (its write crashed between the two steps, or the item it created
 * was deleted since) is deleted once older than {@link Queries#REPAIR_GRACE}; until then queries
 * skip it.
 */
public final class IndexEntries {
  private static final System.Logger LOG = System.getLogger(IndexEntries.class.getName());
  private final Tables tables;

  public IndexEntries(Tables tables) {
    this.tables = tables;
  }

  /**
   * Property of an index row whose RowKey holds a cut key part: the whole key part K (see {@link
   * AzureKeys#storedKeyPart}), from which the item's key is read.
   */
  static final String KEY_PART = "_0_k";

  /**
   * Property of an entry's rows: the ETag of the item version the entry's write replaces, or empty
   * when it creates the item (see the class comment).
   */
  static final String REPLACES = "_0_r";

  /**
   * One index entry.
   *
   * @param index the index name
   * @param partitionKey the entry's PartitionKey
   * @param composite the entry's composite C (forward RowKey without its prefix)
   * @param keyPart the whole key part when C holds a cut one (written as {@link #KEY_PART}), else
   *     null
   * @param replaces the ETag of the item version the entry's write replaces, empty when it creates
   *     the item (written as {@link #REPLACES}), or null when not known (an entry to delete, or one
   *     read without the property)
   */
  public record Entry(
      String index, String partitionKey, String composite, String keyPart, String replaces) {
    String forwardRowKey() {
      return AzureKeys.ITEM + composite;
    }

    String reverseRowKey() {
      return AzureKeys.MIRROR + KeyCodec.reverse(composite);
    }

    /** One of the entry's rows, with the key part property when it has one. */
    TableEntity row(String rowKey) {
      TableEntity e = new TableEntity(partitionKey, rowKey);
      if (keyPart != null) {
        e.addProperty(KEY_PART, keyPart);
      }
      if (replaces != null) {
        e.addProperty(REPLACES, replaces);
      }
      return e;
    }
  }

  /** A fresh nonce for a new item version. */
  public static String newNonce() {
    byte[] b = new byte[8];
    ThreadLocalRandom.current().nextBytes(b);
    return KeyCodec.encodeBytes(b);
  }

  /**
   * The entries of an item version (none for indexes whose attributes it lacks), as rows to delete.
   */
  public static List<Entry> entries(TableLayout layout, Key key, Item item, String nonce) {
    return entriesReplacing(layout, key, item, nonce, null);
  }

  /**
   * The entries of a new item version to write, replacing the stored version {@code replaced} (or
   * creating the item when it is null).
   */
  public static List<Entry> entries(
      TableLayout layout, Key key, Item item, String nonce, Row replaced) {
    return entriesReplacing(layout, key, item, nonce, replaced == null ? "" : replaced.etag());
  }

  private static List<Entry> entriesReplacing(
      TableLayout layout, Key key, Item item, String nonce, String replaces) {
    List<Entry> out = new ArrayList<>();
    if (nonce == null) {
      return out;
    }
    for (IndexLayout index : layout.indexes()) {
      Optional<Bytes> p = binary(item, index.partitionAttribute());
      Optional<Bytes> s = binary(item, index.sortAttribute());
      if (p.isPresent() && s.isPresent()) {
        String composite = AzureKeys.indexComposite(s.get(), key, nonce);
        out.add(
            new Entry(
                index.name(),
                AzureKeys.indexPartitionKey(index.name(), p.get()),
                composite,
                AzureKeys.keyPartCut(composite) ? AzureKeys.keyPart(key) : null,
                replaces));
      }
    }
    return out;
  }

  /**
   * True if an entry that does not match {@code row} (the item as read after the entry, null if
   * absent) is garbage for good, so that read repair may delete it: the item is no longer the
   * version the entry's write replaces, so that write either landed and was replaced since or will
   * never land. While the item is still that version, the write may be between writing its entries
   * and its item; its entries are then skipped, not deleted.
   */
  public static boolean isGarbage(Entry entry, Row row) {
    if (entry.replaces() == null) {
      return true;
    }
    return !entry.replaces().equals(row == null ? "" : row.etag());
  }

  /** True if {@code row} is the current version the entry was written for. */
  public static boolean matches(
      IndexLayout index, Bytes partition, AzureKeys.IndexEntry e, Row row) {
    if (row == null || row.nonce() == null || !row.nonce().equals(e.nonce())) {
      return false;
    }
    return binary(row.item(), index.partitionAttribute()).equals(Optional.of(partition))
        && binary(row.item(), index.sortAttribute()).equals(Optional.of(e.sort()));
  }

  private static Optional<Bytes> binary(Item item, String attribute) {
    return item.find(attribute)
        .filter(v -> v instanceof AttributeValue.BinaryValue)
        .map(v -> ((AttributeValue.BinaryValue) v).value());
  }

  /** Writes entries (the rows of each in one transaction). */
  public void write(TableLayout layout, List<Entry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    TableClient client = tables.index(layout);
    boolean reverse = tables.reverseRows(layout);
    for (Entry e : entries) {
      try {
        client.submitTransaction(rows(e, TableTransactionActionType.UPSERT_REPLACE, reverse));
      } catch (RuntimeException ex) {
        throw AzureErrors.translate(ex, "writing index entry of " + layout.ref());
      }
    }
  }

  /**
   * Writes many entries: grouped by partition into transactions of up to {@link
   * Batches#MAX_ACTIONS} rows (the rows of an entry always together), partitions in parallel.
   */
  public void writeAll(TableLayout layout, List<Entry> entries, ExecutorService executor) {
    if (entries.isEmpty()) {
      return;
    }
    TableClient client = tables.index(layout);
    Parallel.run(
        executor,
        transactions(
            entries, TableTransactionActionType.UPSERT_REPLACE, tables.reverseRows(layout)),
        actions -> {
          try {
            client.submitTransaction(actions);
          } catch (RuntimeException ex) {
            throw AzureErrors.translate(ex, "writing index entries of " + layout.ref());
          }
        });
  }

  /**
   * Deletes many garbage entries like {@link #deleteQuietly}, a transaction per partition chunk; a
   * chunk that fails (a row already gone) is retried entry by entry.
   */
  public void deleteAllQuietly(TableLayout layout, List<Entry> entries, ExecutorService executor) {
    if (entries.isEmpty()) {
      return;
    }
    TableClient client = tables.index(layout);
    Map<String, Entry> byRow = new HashMap<>();
    for (Entry e : entries) {
      byRow.put(e.partitionKey() + "\n" + e.forwardRowKey(), e);
    }
    try {
      Parallel.run(
          executor,
          transactions(entries, TableTransactionActionType.DELETE, tables.reverseRows(layout)),
          actions -> {
            try {
              client.submitTransaction(actions);
            } catch (RuntimeException ex) {
              List<Entry> chunk = new ArrayList<>();
              for (TableTransactionAction a : actions) {
                Entry e =
                    byRow.get(a.getEntity().getPartitionKey() + "\n" + a.getEntity().getRowKey());
                if (e != null) {
                  chunk.add(e);
                }
              }
              deleteQuietly(layout, chunk);
            }
          });
    } catch (RuntimeException ex) {
      LOG.log(System.Logger.Level.DEBUG, "stale index rows not deleted yet", ex);
    }
  }

  /**
   * The rows of an entry as actions of one type: its forward row and, when {@code reverse}, its
   * reverse row.
   */
  private static List<TableTransactionAction> rows(
      Entry e, TableTransactionActionType type, boolean reverse) {
    boolean delete = type == TableTransactionActionType.DELETE;
    TableTransactionAction forward =
        new TableTransactionAction(
            type,
            delete
                ? new TableEntity(e.partitionKey(), e.forwardRowKey())
                : e.row(e.forwardRowKey()));
    if (!reverse) {
      return List.of(forward);
    }
    return List.of(
        forward,
        new TableTransactionAction(
            type,
            delete
                ? new TableEntity(e.partitionKey(), e.reverseRowKey())
                : e.row(e.reverseRowKey())));
  }

  /** The rows of every entry, as transactions of one partition each within Azure's limit. */
  private static List<List<TableTransactionAction>> transactions(
      List<Entry> entries, TableTransactionActionType type, boolean reverse) {
    Map<String, List<Entry>> byPartition = new LinkedHashMap<>();
    for (Entry e : entries) {
      byPartition.computeIfAbsent(e.partitionKey(), k -> new ArrayList<>()).add(e);
    }
    int perEntry = reverse ? 2 : 1;
    List<List<TableTransactionAction>> out = new ArrayList<>();
    for (List<Entry> group : byPartition.values()) {
      List<TableTransactionAction> current = new ArrayList<>();
      for (Entry e : group) {
        if (current.size() + perEntry > Batches.MAX_ACTIONS) {
          out.add(current);
          current = new ArrayList<>();
        }
        current.addAll(rows(e, type, reverse));
      }
      out.add(current);
    }
    return out;
  }

  /**
   * Deletes entries that are garbage; failures are only logged, since a surviving garbage entry is
   * skipped and deleted again by the next index query that meets it.
   */
  public void deleteQuietly(TableLayout layout, List<Entry> entries) {
    if (entries.isEmpty()) {
      return;
    }
    TableClient client = tables.index(layout);
    boolean reverse = tables.reverseRows(layout);
    for (Entry e : entries) {
      if (reverse) {
        try {
          client.submitTransaction(rows(e, TableTransactionActionType.DELETE, true));
          continue;
        } catch (RuntimeException ex) {
          // One row is already gone (a concurrent repair); delete the other one by itself.
        }
      }
      for (String rk :
          reverse
              ? new String[] {e.forwardRowKey(), e.reverseRowKey()}
              : new String[] {e.forwardRowKey()}) {
        try {
          client.deleteEntity(e.partitionKey(), rk);
        } catch (RuntimeException ex) {
          if (AzureErrors.status(ex) != 404) {
            LOG.log(System.Logger.Level.DEBUG, "stale index row not deleted yet", ex);
          }
        }
      }
    }
  }
}
