package dev.stowage.azure.internal;

import dev.stowage.ConditionFailedException;
import dev.stowage.ConflictException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Puts and deletes with expectations, index maintenance and previous-item return.
 *
 * <p>Write order on tables with indexes: (1) write the new version's index entries, (2) write the
 * item with its new nonce, conditional on the version read before, (3) delete the replaced
 * version's entries. A crash after (1) leaves entries whose nonce no item carries; after (2),
 * entries of a version that is gone. Both are skipped and deleted by index queries (read repair),
 * so queries never show a stale item and never miss the current one. The entries of (1) name the
 * version (2) replaces, so that a query meeting them before (2) lands skips them without deleting
 * them ({@link IndexEntries#isGarbage}).
 *
 * <p>When the replaced item matters (indexes, or the caller wants it back), an {@link
 * Expectation#ANY} write reads the item and writes conditionally on that version, repeating on a
 * lost race, so the replaced item is known exactly.
 *
 * <p>Otherwise a put is one write. Its template (the EDM types of the properties it replaces, and
 * copies of the key) is the one {@link Templates} remembers from the last read or write of the
 * entity through this driver; an entity it does not remember is written with Stowage's own types on
 * Stowage's own tables, where Stowage wrote it or the application replaces it without reading it,
 * and read first on adopted tables, which other tools write.
 */
public final class ItemWriter {
  private static final int MAX_ATTEMPTS = 16;

  private final ItemStore store;
  private final IndexEntries index;
  private final WriteStep.Hook hook;

  public ItemWriter(ItemStore store, IndexEntries index, WriteStep.Hook hook) {
    this.store = store;
    this.index = index;
    this.hook = hook;
  }

  /** See {@link dev.stowage.spi.StorageDriver#put}. */
  public WriteResult put(
      TableLayout layout, Item item, Expectation expect, boolean returnPrevious) {
    Key key = layout.keySchema().keyOf(item);
    boolean indexed = !layout.indexes().isEmpty();
    if (!indexed && (!returnPrevious || expect instanceof Expectation.Any)) {
      // The template of the properties' EDM types is the entity this driver last read or wrote; a
      // write racing in between only changes which template is used.
      if (returnPrevious) {
        return putLearningReplaced(layout, key, item);
      }
      Map<String, Object> template = store.template(layout, key);
      if (template == null && layout.adopted()) {
        template = store.get(layout, key).map(Row::properties).orElse(null);
      }
      String etag =
          store.put(layout, key, ItemStore.entity(layout, key, item, null, template), expect);
      return new WriteResult(Optional.empty(), etag);
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<Row> previous = store.get(layout, key);
      check(expect, previous, key);
      Expectation exact = previous.map(r -> Expectation.token(r.etag())).orElse(Expectation.ABSENT);
      String nonce = indexed ? IndexEntries.newNonce() : null;
      List<IndexEntries.Entry> fresh =
          IndexEntries.entries(layout, key, item, nonce, previous.orElse(null));
      index.write(layout, fresh);
      hook.after(WriteStep.NEW_ENTRIES_WRITTEN);
      String etag;
      try {
        etag =
            store.put(
                layout,
                key,
                ItemStore.entity(layout, key, item, nonce, previous.orElse(null)),
                exact);
      } catch (ConditionFailedException raced) {
        Optional<Row> now = indexed ? store.get(layout, key) : Optional.empty();
        if (now.isPresent() && nonce.equals(now.get().nonce())) {
          // It landed after all: a client below the driver resent the write on its own (an
          // SDK's retry after a lost response), and the resent request failed on the first
          // one's effect. Its entries are the item's; deleting them would hide it from the index.
          etag = now.get().etag();
        } else {
          index.deleteQuietly(layout, fresh);
          if (expect instanceof Expectation.Any) {
            continue;
          }
          throw raced;
        }
      }
      hook.after(WriteStep.ITEM_WRITTEN);
      previous.ifPresent(r -> index.deleteQuietly(layout, staleEntries(layout, key, r)));
      hook.after(WriteStep.STALE_ENTRIES_DELETED);
      return new WriteResult(returnPrevious ? previous.map(Row::stored) : Optional.empty(), etag);
    }
    throw new ConflictException("writing " + key + " to " + layout.ref() + " kept racing");
  }

  /**
   * An unconditional put that returns the item it replaced (a blob store is configured). The
   * version this driver last wrote, if it remembers one ({@link KnownVersions}), is replaced under
   * its ETag: one request, and the replaced item is known exactly. Otherwise, or when another
   * writer changed the item since, the item is read just before an unconditional write, and the
   * previous item is the one read (see {@link dev.stowage.spi.StorageDriver#put}); the read is also
   * the template.
   */
  private WriteResult putLearningReplaced(TableLayout layout, Key key, Item item) {
    // The entity keys, encoded once for both memories and the entity.
    String pk = AzureKeys.partitionKey(layout, key.partition());
    String rk = AzureKeys.rowKey(layout, key);
    StoredItem known = store.knownVersion(layout, pk, rk);
    Map<String, Object> template = store.template(layout, pk, rk);
    if (known != null && (template != null || !layout.adopted())) {
      try {
        String etag =
            store.put(
                layout,
                key,
                ItemStore.entity(layout, pk, rk, item, null, template),
                Expectation.token(known.token()));
        store.rememberVersion(layout, pk, rk, new StoredItem(item, etag));
        return new WriteResult(Optional.of(known), etag);
      } catch (ConditionFailedException stale) {
        // Another writer replaced or deleted the version remembered: learn the current one.
        store.forgetVersion(layout, pk, rk);
      }
    }
    Row replaced = store.get(layout, key).orElse(null);
    String etag =
        store.put(
            layout,
            key,
            ItemStore.entity(
                layout, pk, rk, item, null, replaced == null ? null : replaced.properties()),
            Expectation.ANY);
    store.rememberVersion(layout, pk, rk, new StoredItem(item, etag));
    return new WriteResult(Optional.ofNullable(replaced).map(Row::stored), etag);
  }

  /** See {@link dev.stowage.spi.StorageDriver#delete}. */
  public WriteResult delete(
      TableLayout layout, Key key, Expectation expect, boolean returnPrevious) {
    layout.keySchema().validate(key);
    boolean indexed = !layout.indexes().isEmpty();
    if (!indexed && !returnPrevious && !(expect instanceof Expectation.Absent)) {
      store.delete(layout, key, expect);
      return new WriteResult(Optional.empty(), null);
    }
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<Row> previous = store.get(layout, key);
      check(expect, previous, key);
      if (previous.isEmpty()) {
        return new WriteResult(Optional.empty(), null);
      }
      try {
        store.delete(layout, key, Expectation.token(previous.get().etag()));
      } catch (ConditionFailedException raced) {
        if (expect instanceof Expectation.Any) {
          continue;
        }
        throw raced;
      }
      hook.after(WriteStep.ITEM_WRITTEN);
      index.deleteQuietly(layout, staleEntries(layout, key, previous.get()));
      hook.after(WriteStep.STALE_ENTRIES_DELETED);
      Optional<StoredItem> prev = returnPrevious ? previous.map(Row::stored) : Optional.empty();
      return new WriteResult(prev, null);
    }
    throw new ConflictException("deleting " + key + " from " + layout.ref() + " kept racing");
  }

  /** The entries of a stored version, which become garbage once it is replaced or deleted. */
  static List<IndexEntries.Entry> staleEntries(TableLayout layout, Key key, Row row) {
    return IndexEntries.entries(layout, key, row.item(), row.nonce());
  }

  /** Checks an expectation against the version read. */
  static void check(Expectation expect, Optional<Row> previous, Key key) {
    if (expect instanceof Expectation.Absent && previous.isPresent()) {
      throw new ConditionFailedException("item " + key + " already exists");
    }
    if (expect instanceof Expectation.Token t
        && (previous.isEmpty() || !previous.get().etag().equals(t.token()))) {
      throw new ConditionFailedException(
          "item " + key + (previous.isEmpty() ? " does not exist" : " has another version"));
    }
  }
}
