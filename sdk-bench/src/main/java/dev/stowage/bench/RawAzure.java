package dev.stowage.bench;

import com.azure.core.http.rest.PagedResponse;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import dev.stowage.item.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The raw Azure Tables client's side of {@link CrossBackendCeilings}: entity-group transactions of
 * up to 100 upserts of one partition (the item rows alone, or with their index entries' forward
 * rows as Stowage writes an indexed table), and one {@code PartitionKey}-range listing per thread.
 */
final class RawAzure {
  private RawAzure() {}

  /** The raw parallel write of one row per item into a table {@code table}, in items/s. */
  static double write(
      TableServiceClient service, ExecutorService pool, String table, List<Item> items)
      throws Exception {
    TableClient tables = createTable(service, table);
    List<List<TableTransactionAction>> transactions = new ArrayList<>();
    List<TableTransactionAction> current = new ArrayList<>();
    String partition = null;
    for (Item item : items) {
      String account = item.getString("account");
      if (!current.isEmpty() && (current.size() == 100 || !account.equals(partition))) {
        transactions.add(current);
        current = new ArrayList<>();
      }
      partition = account;
      TableEntity e =
          new TableEntity(account, LedgerItems.rowKey(LedgerItems.seq(item)))
              .addProperty("seq", LedgerItems.seq(item))
              .addProperty("day", item.getString("day"))
              .addProperty("amount", item.getNumber("amount").doubleValue())
              .addProperty("memo", item.getString("memo"))
              .addProperty("iban", item.getString("iban"));
      current.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, e));
    }
    if (!current.isEmpty()) {
      transactions.add(current);
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (List<TableTransactionAction> tx : transactions) {
      tasks.add(
          () -> {
            tables.submitTransaction(tx);
            return null;
          });
    }
    TimedTasks.runAll(pool, tasks);
    return TimedTasks.rate(items.size(), t);
  }

  /**
   * The raw client writing the rows Stowage keeps for an item of a table with one index (created
   * without descending queries): the item row (with a nonce property) and the forward row of its
   * entry, in the index partition of its day, all as transactions of up to 100 upserts of one
   * partition, in parallel, with no order between them (the fewest requests any client could send
   * for these rows).
   */
  static double writeWithIndexRows(
      TableServiceClient service, ExecutorService pool, String table, List<Item> items)
      throws Exception {
    TableClient data = createTable(service, table);
    TableClient index = createTable(service, table + "ix");
    Map<String, List<TableTransactionAction>> rows = new java.util.LinkedHashMap<>();
    for (Item item : items) {
      addIndexedRows(
          rows,
          item.getString("account"),
          LedgerItems.seq(item),
          item.getString("day"),
          item.getNumber("amount").doubleValue(),
          item.getString("memo"),
          item.getString("iban"));
    }
    List<Callable<Void>> tasks = new ArrayList<>();
    forEachTransaction(
        rows,
        data,
        index,
        (client, tx) ->
            tasks.add(
                () -> {
                  client.submitTransaction(tx);
                  return null;
                }));
    long t = System.nanoTime();
    TimedTasks.runAll(pool, tasks);
    return TimedTasks.rate(items.size(), t);
  }

  /** The nonce of an item row and its index entry (fixed per item, so a copy can be checked). */
  private static String nonce(long seq) {
    return "n" + Long.toHexString(seq * 0x9E3779B97F4A7C15L);
  }

  static String forwardPartition(String day) {
    return "byDay." + day;
  }

  static String forwardRow(String account, long seq) {
    return "a" + LedgerItems.rowKey(seq) + "." + account + "." + nonce(seq);
  }

  /**
   * Adds an item's rows in an indexed table to {@code rows}, by partition: the item row under
   * {@code "d" + account}, its entry's forward row under {@code "i" + the index partition}.
   */
  static void addIndexedRows(
      Map<String, List<TableTransactionAction>> rows,
      String account,
      long seq,
      String day,
      double amount,
      String memo,
      String iban) {
    rows.computeIfAbsent("d" + account, k -> new ArrayList<>())
        .add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                new TableEntity(account, LedgerItems.rowKey(seq))
                    .addProperty("seq", seq)
                    .addProperty("day", day)
                    .addProperty("amount", amount)
                    .addProperty("memo", memo)
                    .addProperty("iban", iban)
                    .addProperty("nonce", nonce(seq))));
    String partition = forwardPartition(day);
    rows.computeIfAbsent("i" + partition, k -> new ArrayList<>())
        .add(
            new TableTransactionAction(
                TableTransactionActionType.UPSERT_REPLACE,
                new TableEntity(partition, forwardRow(account, seq))));
  }

  /** Cuts rows by partition (as {@link #addIndexedRows} groups them) into transactions of 100. */
  static void forEachTransaction(
      Map<String, List<TableTransactionAction>> rows,
      TableClient data,
      TableClient index,
      java.util.function.BiConsumer<TableClient, List<TableTransactionAction>> transaction) {
    for (Map.Entry<String, List<TableTransactionAction>> e : rows.entrySet()) {
      TableClient client = e.getKey().startsWith("d") ? data : index;
      List<TableTransactionAction> all = e.getValue();
      for (int i = 0; i < all.size(); i += 100) {
        transaction.accept(client, all.subList(i, Math.min(all.size(), i + 100)));
      }
    }
  }

  static TableClient createTable(TableServiceClient service, String table) {
    TableClient client = service.createTableIfNotExists(table);
    return client == null ? service.getTableClient(table) : client;
  }

  /** The raw parallel read of the whole table, in items/s; throws unless it read {@code n}. */
  static double read(
      TableServiceClient service, ExecutorService pool, String table, int parallelism, int n)
      throws Exception {
    long t = System.nanoTime();
    return TimedTasks.checked("Azurite", scan(service, pool, table, parallelism, null), n, t);
  }

  /**
   * One {@code PartitionKey}-range listing per thread of {@code table} (the service's pages), each
   * page handed to {@code sink} (if any) on its range's thread; returns the rows read. The ranges
   * cover every partition key below "~".
   */
  static long scan(
      TableServiceClient service,
      ExecutorService pool,
      String table,
      int parallelism,
      PageSink<TableEntity> sink)
      throws Exception {
    TableClient tables = service.getTableClient(table);
    List<String> bounds = LedgerItems.accountBounds(parallelism);
    AtomicLong count = new AtomicLong();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s + 1 < bounds.size(); s++) {
      String filter =
          "PartitionKey ge '" + bounds.get(s) + "' and PartitionKey lt '" + bounds.get(s + 1) + "'";
      tasks.add(
          () -> {
            for (PagedResponse<TableEntity> page :
                tables
                    .listEntities(new ListEntitiesOptions().setFilter(filter), null, null)
                    .iterableByPage()) {
              count.addAndGet(page.getValue().size());
              if (sink != null) {
                sink.accept(page.getValue());
              }
            }
            return null;
          });
    }
    TimedTasks.runAll(pool, tasks);
    return count.get();
  }
}
