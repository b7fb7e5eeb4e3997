package dev.stowage.bench;

import dev.stowage.item.Item;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The raw DynamoDB client's side of {@link CrossBackendCeilings}: {@code BatchWriteItem} of 25
 * items into a table with the {@code byDay} index, and a parallel {@code Scan} with one segment per
 * thread.
 */
final class RawDynamoDb {
  private RawDynamoDb() {}

  /** A table of the ledger's key with the {@code byDay} index, as the migrator's target has it. */
  static void createTable(DynamoDbClient ddb, String table) {
    ddb.createTable(
        c ->
            c.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                    KeySchemaElement.builder()
                        .attributeName("account")
                        .keyType(KeyType.HASH)
                        .build(),
                    KeySchemaElement.builder().attributeName("seq").keyType(KeyType.RANGE).build())
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName("account")
                        .attributeType(ScalarAttributeType.S)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("seq")
                        .attributeType(ScalarAttributeType.N)
                        .build(),
                    AttributeDefinition.builder()
                        .attributeName("day")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .globalSecondaryIndexes(
                    GlobalSecondaryIndex.builder()
                        .indexName("byDay")
                        .keySchema(
                            KeySchemaElement.builder()
                                .attributeName("day")
                                .keyType(KeyType.HASH)
                                .build(),
                            KeySchemaElement.builder()
                                .attributeName("seq")
                                .keyType(KeyType.RANGE)
                                .build())
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build()));
  }

  /** The raw client's put of one ledger item ({@code amount} as DynamoDB's number text). */
  static WriteRequest put(
      String account, long seq, String day, String amount, String memo, String iban) {
    Map<String, AttributeValue> m = new HashMap<>();
    m.put("account", AttributeValue.fromS(account));
    m.put("seq", AttributeValue.fromN(Long.toString(seq)));
    m.put("day", AttributeValue.fromS(day));
    m.put("amount", AttributeValue.fromN(amount));
    m.put("memo", AttributeValue.fromS(memo));
    m.put("iban", AttributeValue.fromS(iban));
    return WriteRequest.builder().putRequest(PutRequest.builder().item(m).build()).build();
  }

  /** One {@code BatchWriteItem} of up to 25 puts, re-sending unprocessed ones. */
  static void batchWrite(DynamoDbClient ddb, String table, List<WriteRequest> batch) {
    Map<String, List<WriteRequest>> pending = Map.of(table, batch);
    while (!pending.isEmpty()) {
      Map<String, List<WriteRequest>> send = pending;
      pending = ddb.batchWriteItem(r -> r.requestItems(send)).unprocessedItems();
    }
  }

  /** The raw parallel write of the items into a new table {@code table}, in items/s. */
  static double write(DynamoDbClient ddb, ExecutorService pool, String table, List<Item> items)
      throws Exception {
    createTable(ddb, table);
    List<WriteRequest> writes = new ArrayList<>(items.size());
    for (Item item : items) {
      writes.add(
          put(
              item.getString("account"),
              LedgerItems.seq(item),
              item.getString("day"),
              item.getNumber("amount").toString(),
              item.getString("memo"),
              item.getString("iban")));
    }
    long t = System.nanoTime();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int i = 0; i < writes.size(); i += 25) {
      List<WriteRequest> batch = writes.subList(i, Math.min(writes.size(), i + 25));
      tasks.add(
          () -> {
            batchWrite(ddb, table, batch);
            return null;
          });
    }
    TimedTasks.runAll(pool, tasks);
    return TimedTasks.rate(items.size(), t);
  }

  /** The raw parallel read of the whole table, in items/s; throws unless it read {@code n}. */
  static double read(DynamoDbClient ddb, ExecutorService pool, String table, int segments, int n)
      throws Exception {
    long t = System.nanoTime();
    return TimedTasks.checked("DynamoDB Local", scan(ddb, pool, table, segments, null), n, t);
  }

  /**
   * A parallel {@code Scan} of {@code table}, one segment per thread, pages of {@value
   * CrossBackendCeilings#PAGE}, each page handed to {@code sink} (if any) on its segment's thread;
   * returns the items read.
   */
  static long scan(
      DynamoDbClient ddb,
      ExecutorService pool,
      String table,
      int segments,
      PageSink<Map<String, AttributeValue>> sink)
      throws Exception {
    AtomicLong count = new AtomicLong();
    List<Callable<Void>> tasks = new ArrayList<>();
    for (int s = 0; s < segments; s++) {
      int segment = s;
      tasks.add(
          () -> {
            Map<String, AttributeValue> start = null;
            do {
              Map<String, AttributeValue> from = start;
              ScanResponse page =
                  ddb.scan(
                      r ->
                          r.tableName(table)
                              .segment(segment)
                              .totalSegments(segments)
                              .limit(CrossBackendCeilings.PAGE)
                              .consistentRead(true)
                              .exclusiveStartKey(from));
              count.addAndGet(page.count());
              if (sink != null) {
                sink.accept(page.items());
              }
              start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
              if (start != null && start.isEmpty()) {
                start = null;
              }
            } while (start != null);
            return null;
          });
    }
    TimedTasks.runAll(pool, tasks);
    return count.get();
  }
}
