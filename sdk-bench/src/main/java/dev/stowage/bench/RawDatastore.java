package dev.stowage.bench;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.item.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw Datastore client's side of {@link CrossBackendCeilings}: {@code put} of 500 entities per
 * commit (only {@code day} indexed), and one {@code __key__}-range query per thread.
 */
final class RawDatastore {
  private RawDatastore() {}

  /** The raw client's keys of the ledger kind in namespace {@code "raw" + ns}. */
  static KeyFactory keys(Datastore datastore, String ns) {
    return datastore.newKeyFactory().setNamespace("raw" + ns).setKind("ledger");
  }

  static String keyName(String account, long seq) {
    return account + "/" + LedgerItems.rowKey(seq);
  }

  /** The raw client's entity of one ledger item: only {@code day} among the values indexed. */
  static Entity entity(
      KeyFactory keys,
      String account,
      long seq,
      String day,
      double amount,
      String memo,
      String iban) {
    return Entity.newBuilder(keys.newKey(keyName(account, seq)))
        .set("account", StringValue.newBuilder(account).build())
        .set("seq", LongValue.newBuilder(seq).build())
        .set("day", StringValue.newBuilder(day).build())
        .set("amount", DoubleValue.newBuilder(amount).setExcludeFromIndexes(true).build())
        .set("memo", StringValue.newBuilder(memo).setExcludeFromIndexes(true).build())
        .set("iban", StringValue.newBuilder(iban).setExcludeFromIndexes(true).build())
        .build();
  }

  /** The raw parallel write of the items into namespace {@code "raw" + ns}, in items/s. */
  static double write(Datastore datastore, ExecutorService pool, String ns, List<Item> items)
      throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<Entity> entities = new ArrayList<>(items.size());
    for (Item item : items) {
      entities.add(
          entity(
              keys,
              item.getString("account"),
              LedgerItems.seq(item),
              item.getString("day"),
              item.getNumber("amount").doubleValue(),
              item.getString("memo"),
              item.getString("iban")));
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < entities.size(); i += DatastoreDriver.MAX_MUTATIONS) {
      List<Entity> batch =
          entities.subList(i, Math.min(entities.size(), i + DatastoreDriver.MAX_MUTATIONS));
      tasks.add(
          () -> {
            datastore.put(batch.toArray(new Entity[0]));
            return null;
          });
    }
    TimedTasks.runAll(pool, tasks);
    return TimedTasks.rate(items.size(), t);
  }

  /** The raw parallel read of the whole namespace, in items/s; throws unless it read {@code n}. */
  static double read(Datastore datastore, ExecutorService pool, String ns, int parallelism, int n)
      throws Exception {
    long t = System.nanoTime();
    return TimedTasks.checked(
        "Datastore emulator", scan(datastore, pool, ns, parallelism, null), n, t);
  }

  /**
   * One {@code __key__}-range query per thread over the raw kind of namespace {@code ns}, pages of
   * {@value CrossBackendCeilings#PAGE}, each page handed to {@code sink} (if any) on its range's
   * thread; returns the entities read.
   */
  static long scan(
      Datastore datastore, ExecutorService pool, String ns, int parallelism, PageSink<Entity> sink)
      throws Exception {
    KeyFactory keys = keys(datastore, ns);
    List<String> bounds = LedgerItems.accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s + 1 < bounds.size(); s++) {
      String lo = bounds.get(s);
      String hi = bounds.get(s + 1);
      tasks.add(
          () -> {
            Cursor cursor = null;
            while (true) {
              var q =
                  Query.newEntityQueryBuilder()
                      .setNamespace("raw" + ns)
                      .setKind("ledger")
                      .setLimit(CrossBackendCeilings.PAGE)
                      .setFilter(keyRange(keys, lo, hi));
              if (cursor != null) {
                q.setStartCursor(cursor);
              }
              QueryResults<Entity> page = datastore.run(q.build());
              List<Entity> entities = sink == null ? null : new ArrayList<>();
              int got = 0;
              while (page.hasNext()) {
                Entity e = page.next();
                if (entities != null) {
                  entities.add(e);
                }
                got++;
              }
              count.addAndGet(got);
              if (sink != null) {
                sink.accept(entities);
              }
              if (got < CrossBackendCeilings.PAGE) {
                return null;
              }
              cursor = page.getCursorAfter();
            }
          });
    }
    TimedTasks.runAll(pool, tasks);
    return count.get();
  }

  /** {@code lo <= __key__ < hi}; an empty {@code lo} or a {@code hi} of "~" is open. */
  private static com.google.cloud.datastore.StructuredQuery.Filter keyRange(
      KeyFactory keys, String lo, String hi) {
    PropertyFilter from = lo.isEmpty() ? null : PropertyFilter.ge("__key__", keys.newKey(lo));
    PropertyFilter to = hi.equals("~") ? null : PropertyFilter.lt("__key__", keys.newKey(hi));
    if (from == null || to == null) {
      return from != null ? from : to;
    }
    return CompositeFilter.and(from, to);
  }
}
