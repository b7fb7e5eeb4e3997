package dev.stowage.dynamodb.internal;

import dev.stowage.NotFoundException;
import dev.stowage.ThrottledException;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.Position;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Runs Stowage queries and scans as DynamoDB Query and Scan calls, paging until {@code limit} items
 * are collected or the partition ends, so a page never comes back short only because DynamoDB
 * stopped early or an exclusive bound dropped an endpoint item.
 *
 * <p>Native indexes are queried on the application's GSI or LSI (see {@link IndexQuery}). One that
 * does not project every attribute returns partial items, so the driver then reads each page's
 * items whole by key (BatchGetItem) and drops those deleted or moved out of the entry since,
 * reading on until the page is full.
 */
public final class QueryRunner {
  private final DynamoDbClient client;
  private final CapacityMeter meter;
  private final NativeIndexes natives;
  private final BatchOps batches;
  private final TableProvisioner provisioner;

  public QueryRunner(
      DynamoDbClient client,
      CapacityMeter meter,
      NativeIndexes natives,
      BatchOps batches,
      TableProvisioner provisioner) {
    this.client = client;
    this.meter = meter;
    this.natives = natives;
    this.batches = batches;
    this.provisioner = provisioner;
  }

  /** Runs a query of one partition of the table or of an index. */
  public QueryResult query(TableLayout table, String physical, DriverQuery q) {
    if (q.index() != null) {
      IndexLayout ix =
          table
              .index(q.index())
              .orElseThrow(
                  () ->
                      new NotFoundException("table " + table.ref() + " has no index " + q.index()));
      if (ix.isNative()) {
        return nativeQuery(table, physical, ix, q);
      }
      return new IndexQuery(client, meter, table, physical, ix, q, false).run();
    }
    String pkAttr = table.keySchema().partitionName();
    String skAttr = table.keySchema().sortName().orElse(null);
    KeyRange r = q.range();
    Expressions ex = new Expressions();
    String kc = KeyConditions.of(ex, pkAttr, q.partition(), skAttr, r);
    if (kc == null) {
      return new QueryResult(List.of(), false);
    }
    boolean filterBounds = KeyConditions.needsBoundFilter(r);
    Map<String, AttributeValue> start =
        q.exclusiveStart() == null
            ? null
            : AttributeMapper.keyOf(table.keySchema(), q.exclusiveStart().key());
    List<StoredItem> out = new ArrayList<>(Math.min(q.limit(), 1000));
    String projection = ex.projection(q.attributes());
    while (true) {
      QueryRequest.Builder req =
          QueryRequest.builder()
              .tableName(physical)
              .keyConditionExpression(kc)
              .projectionExpression(projection)
              .expressionAttributeNames(ex.attributeNames())
              .expressionAttributeValues(ex.attributeValuesOrNull())
              .scanIndexForward(Requests.forward(q.descending()))
              .consistentRead(Requests.flag(q.consistentRead()))
              .limit(q.limit() - out.size())
              .returnConsumedCapacity(meter.learn(table, physical));
      if (start != null) {
        req.exclusiveStartKey(start);
      }
      QueryResponse resp;
      try {
        resp = client.query(req.build());
      } catch (SdkException e) {
        throw Errors.translate("Query " + physical, e);
      }
      meter.record(resp.consumedCapacity(), false);
      for (Map<String, AttributeValue> item : resp.items()) {
        if (!filterBounds || KeyConditions.contains(r, item.get(skAttr))) {
          out.add(Stored.of(item));
        }
      }
      boolean lek = resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty();
      if (out.size() >= q.limit() || !lek) {
        return new QueryResult(out, lek);
      }
      start = resp.lastEvaluatedKey();
    }
  }

  /** What the table says about a native index; a table not opened through this driver is read. */
  NativeIndexes.Info nativeInfo(TableLayout table, String physical, IndexLayout ix) {
    return natives
        .info(physical, ix.name())
        .orElseGet(
            () -> {
              provisioner.open(table, physical);
              return natives.info(physical, ix.name()).orElseThrow();
            });
  }

  private QueryResult nativeQuery(
      TableLayout table, String physical, IndexLayout ix, DriverQuery q) {
    NativeIndexes.Info info = nativeInfo(table, physical, ix);
    boolean consistent = info.local() && q.consistentRead();
    if (info.projectsAll()) {
      return new IndexQuery(client, meter, table, physical, ix, q, consistent).run();
    }
    List<StoredItem> out = new ArrayList<>();
    DriverQuery next = q;
    while (true) {
      QueryResult entries =
          new IndexQuery(client, meter, table, physical, ix, next, consistent).run();
      out.addAll(whole(table, physical, ix, entries.items(), consistent));
      if (out.size() >= q.limit() || !entries.more() || entries.items().isEmpty()) {
        return new QueryResult(out, entries.more());
      }
      Item last = entries.items().get(entries.items().size() - 1).item();
      KeyValue lastSort =
          ix.sortAttribute() == null ? null : (KeyValue) last.get(ix.sortAttribute());
      next =
          new DriverQuery(
              q.index(),
              q.partition(),
              q.range(),
              q.descending(),
              q.limit() - out.size(),
              new Position(table.keySchema().keyOf(last), lastSort),
              q.consistentRead());
    }
  }

  /**
   * The whole items of index entries projected partially, in the entries' order; an item deleted
   * since, or whose index values changed since (it is found at its new place), is left out.
   */
  List<StoredItem> whole(
      TableLayout table,
      String physical,
      IndexLayout ix,
      List<StoredItem> entries,
      boolean consistent) {
    List<StoredItem> out = new ArrayList<>(entries.size());
    for (int from = 0; from < entries.size(); from += 100) {
      List<StoredItem> chunk = entries.subList(from, Math.min(entries.size(), from + 100));
      List<Key> keys = chunk.stream().map(s -> table.keySchema().keyOf(s.item())).toList();
      BatchGetResult got = batches.get(table, physical, keys, consistent);
      if (!got.unprocessed().isEmpty()) {
        // The driver never retries: the core's retry policy repeats the whole query.
        throw new ThrottledException(
            "BatchGetItem "
                + physical
                + " left "
                + got.unprocessed().size()
                + " keys unprocessed while reading the items of index "
                + ix.nativeName(),
            null);
      }
      Map<Key, StoredItem> byKey = new HashMap<>();
      got.items().forEach(s -> byKey.put(table.keySchema().keyOf(s.item()), s));
      for (int i = 0; i < chunk.size(); i++) {
        StoredItem item = byKey.get(keys.get(i));
        Item entry = chunk.get(i).item();
        if (item != null
            && same(entry, item.item(), ix.partitionAttribute())
            && (ix.sortAttribute() == null || same(entry, item.item(), ix.sortAttribute()))) {
          out.add(item);
        }
      }
    }
    return out;
  }

  private static boolean same(Item a, Item b, String attribute) {
    return java.util.Objects.equals(a.find(attribute), b.find(attribute));
  }

  /** Scans the table in DynamoDB's stable order, resuming after a key. */
  public QueryResult scan(TableLayout table, String physical, DriverScan s) {
    Map<String, AttributeValue> start =
        s.exclusiveStart() == null
            ? null
            : AttributeMapper.keyOf(table.keySchema(), s.exclusiveStart());
    List<StoredItem> out = new ArrayList<>(Math.min(s.limit(), 1000));
    while (true) {
      ScanRequest.Builder req =
          ScanRequest.builder()
              .tableName(physical)
              .limit(s.limit() - out.size())
              .consistentRead(Requests.flag(s.consistentRead()))
              .returnConsumedCapacity(meter.learn(table, physical));
      if (start != null) {
        req.exclusiveStartKey(start);
      }
      ScanResponse resp;
      try {
        resp = client.scan(req.build());
      } catch (SdkException e) {
        throw Errors.translate("Scan " + physical, e);
      }
      meter.record(resp.consumedCapacity(), false);
      resp.items().forEach(i -> out.add(Stored.of(i)));
      boolean lek = resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty();
      if (out.size() >= s.limit() || !lek) {
        return new QueryResult(out, lek);
      }
      start = resp.lastEvaluatedKey();
    }
  }
}
