package dev.stowage.bench;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableTransactionAction;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.item.Item;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The hand-written raw parallel copies of {@link CrossBackendCeilings}, one per hop, and their
 * untimed check of what they left in the target.
 */
final class RawCopies {
  private RawCopies() {}

  /**
   * Hop {@code hop}'s hand-written copy: the raw read of the source's table or namespace {@code
   * from}, each thread writing every page it reads into {@code to} in the raw writes' batch shapes
   * before it reads the next. Throws unless it read and wrote exactly {@code n} items.
   */
  static double copy(
      int hop,
      DynamoDbClient ddb,
      Datastore datastore,
      TableServiceClient azure,
      ExecutorService pool,
      String from,
      String to,
      int parallelism,
      int n)
      throws Exception {
    AtomicLong written = new AtomicLong();
    long read;
    long t;
    switch (hop) {
      case 0 -> {
        KeyFactory keys = RawDatastore.keys(datastore, to);
        t = System.nanoTime();
        read =
            RawDynamoDb.scan(
                ddb,
                pool,
                from,
                parallelism,
                page -> {
                  List<Entity> entities = new ArrayList<>(page.size());
                  for (Map<String, AttributeValue> m : page) {
                    entities.add(
                        RawDatastore.entity(
                            keys,
                            m.get("account").s(),
                            Long.parseLong(m.get("seq").n()),
                            m.get("day").s(),
                            Double.parseDouble(m.get("amount").n()),
                            m.get("memo").s(),
                            m.get("iban").s()));
                  }
                  for (int i = 0; i < entities.size(); i += DatastoreDriver.MAX_MUTATIONS) {
                    datastore.put(
                        entities
                            .subList(
                                i, Math.min(entities.size(), i + DatastoreDriver.MAX_MUTATIONS))
                            .toArray(new Entity[0]));
                  }
                  written.addAndGet(entities.size());
                });
      }
      case 1 -> {
        TableClient data = RawAzure.createTable(azure, to);
        TableClient index = RawAzure.createTable(azure, to + "ix");
        t = System.nanoTime();
        read =
            RawDatastore.scan(
                datastore,
                pool,
                from,
                parallelism,
                page -> {
                  Map<String, List<TableTransactionAction>> rows = new java.util.LinkedHashMap<>();
                  for (Entity e : page) {
                    RawAzure.addIndexedRows(
                        rows,
                        e.getString("account"),
                        e.getLong("seq"),
                        e.getString("day"),
                        e.getDouble("amount"),
                        e.getString("memo"),
                        e.getString("iban"));
                  }
                  RawAzure.forEachTransaction(rows, data, index, TableClient::submitTransaction);
                  written.addAndGet(page.size());
                });
      }
      default -> {
        RawDynamoDb.createTable(ddb, to);
        t = System.nanoTime();
        read =
            RawAzure.scan(
                azure,
                pool,
                from,
                parallelism,
                page -> {
                  List<WriteRequest> writes = new ArrayList<>(page.size());
                  for (TableEntity e : page) {
                    writes.add(
                        RawDynamoDb.put(
                            e.getPartitionKey(),
                            ((Number) e.getProperty("seq")).longValue(),
                            (String) e.getProperty("day"),
                            BigDecimal.valueOf(((Number) e.getProperty("amount")).doubleValue())
                                .toPlainString(),
                            (String) e.getProperty("memo"),
                            (String) e.getProperty("iban")));
                  }
                  for (int i = 0; i < writes.size(); i += 25) {
                    RawDynamoDb.batchWrite(
                        ddb, to, writes.subList(i, Math.min(writes.size(), i + 25)));
                  }
                  written.addAndGet(writes.size());
                });
      }
    }
    double rate = TimedTasks.rate(n, t);
    if (read != n || written.get() != n) {
      throw new IllegalStateException(
          "raw copy "
              + CrossBackendCeilings.HOPS[hop]
              + ": read "
              + read
              + ", wrote "
              + written
              + " of "
              + n);
    }
    return rate;
  }

  /**
   * Checks (untimed) that hop {@code hop}'s raw copy left every item in the target: reads the
   * target back whole with the raw read (item count; for Azure also the forward rows' count) and
   * compares a few items attribute by attribute with the items the source was written with.
   */
  static void verify(
      int hop,
      DynamoDbClient ddb,
      Datastore datastore,
      TableServiceClient azure,
      ExecutorService pool,
      String to,
      List<Item> items,
      int parallelism)
      throws Exception {
    int n = items.size();
    String what = "raw copy " + CrossBackendCeilings.HOPS[hop];
    switch (hop) {
      case 0 -> RawDatastore.read(datastore, pool, to, parallelism, n);
      case 1 -> {
        RawAzure.read(azure, pool, to, parallelism, n);
        long rows = RawAzure.scan(azure, pool, to + "ix", parallelism, null);
        if (rows != n) {
          throw new IllegalStateException(what + ": " + rows + " forward rows for " + n + " items");
        }
      }
      default -> RawDynamoDb.read(ddb, pool, to, parallelism, n);
    }
    for (int i = 0; i < 8; i++) {
      Item item = items.get((int) ((long) i * (n - 1) / 7));
      String account = item.getString("account");
      long seq = LedgerItems.seq(item);
      // account, seq, day, amount, memo, iban as the target holds them
      Object[] got =
          switch (hop) {
            case 0 -> {
              Entity e =
                  datastore.get(
                      RawDatastore.keys(datastore, to).newKey(RawDatastore.keyName(account, seq)));
              yield e == null
                  ? null
                  : new Object[] {
                    e.getString("account"),
                    e.getLong("seq"),
                    e.getString("day"),
                    BigDecimal.valueOf(e.getDouble("amount")),
                    e.getString("memo"),
                    e.getString("iban")
                  };
            }
            case 1 -> {
              TableEntity e = azure.getTableClient(to).getEntity(account, LedgerItems.rowKey(seq));
              // the forward row is there, or getEntity throws
              azure
                  .getTableClient(to + "ix")
                  .getEntity(
                      RawAzure.forwardPartition(item.getString("day")),
                      RawAzure.forwardRow(account, seq));
              yield new Object[] {
                e.getPartitionKey(),
                ((Number) e.getProperty("seq")).longValue(),
                e.getProperty("day"),
                BigDecimal.valueOf(((Number) e.getProperty("amount")).doubleValue()),
                e.getProperty("memo"),
                e.getProperty("iban")
              };
            }
            default -> {
              Map<String, AttributeValue> m =
                  ddb.getItem(
                          g ->
                              g.tableName(to)
                                  .consistentRead(true)
                                  .key(
                                      Map.of(
                                          "account",
                                          AttributeValue.fromS(account),
                                          "seq",
                                          AttributeValue.fromN(Long.toString(seq)))))
                      .item();
              yield m == null || m.isEmpty()
                  ? null
                  : new Object[] {
                    m.get("account").s(),
                    Long.parseLong(m.get("seq").n()),
                    m.get("day").s(),
                    new BigDecimal(m.get("amount").n()),
                    m.get("memo").s(),
                    m.get("iban").s()
                  };
            }
          };
      Object[] want = {
        account,
        seq,
        item.getString("day"),
        new BigDecimal(item.getNumber("amount").toString()),
        item.getString("memo"),
        item.getString("iban")
      };
      if (got == null || !sameValues(want, got)) {
        throw new IllegalStateException(
            what
                + ": item "
                + account
                + "/"
                + seq
                + " is "
                + (got == null ? "missing" : Arrays.toString(got))
                + " on the target, not "
                + Arrays.toString(want));
      }
    }
  }

  /** Equal values, numbers compared by value (so 12.25 and 12.250 are the same amount). */
  private static boolean sameValues(Object[] want, Object[] got) {
    for (int i = 0; i < want.length; i++) {
      boolean same =
          want[i] instanceof BigDecimal w && got[i] instanceof BigDecimal g
              ? w.compareTo(g) == 0
              : want[i].equals(got[i]);
      if (!same) {
        return false;
      }
    }
    return true;
  }
}
