package dev.stowage.dynamodb.internal;

import dev.stowage.NotFoundException;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Runs Stowage queries and scans as DynamoDB Query and Scan calls, paging until {@code limit} items
 * are collected or the partition ends, so a page never comes back short only because DynamoDB
 * stopped early or an exclusive bound dropped an endpoint item.
 */
public final class QueryRunner {
  private final DynamoDbClient client;
  private final CapacityMeter meter;

  public QueryRunner(DynamoDbClient client, CapacityMeter meter) {
    this.client = client;
    this.meter = meter;
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
      return new IndexQuery(client, meter, table, physical, ix, q).run();
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
    while (true) {
      QueryRequest.Builder req =
          QueryRequest.builder()
              .tableName(physical)
              .keyConditionExpression(kc)
              .expressionAttributeNames(ex.attributeNames())
              .expressionAttributeValues(ex.attributeValuesOrNull())
              .scanIndexForward(!q.descending())
              .consistentRead(q.consistentRead())
              .limit(q.limit() - out.size())
              .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
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
              .consistentRead(s.consistentRead())
              .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
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
