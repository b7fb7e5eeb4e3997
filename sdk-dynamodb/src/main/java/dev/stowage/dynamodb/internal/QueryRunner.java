package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.item.KeyValue;
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
    String pkAttr;
    String skAttr;
    String indexName = null;
    if (q.index() != null) {
      IndexLayout ix =
          table
              .index(q.index())
              .orElseThrow(
                  () ->
                      new NotFoundException("table " + table.ref() + " has no index " + q.index()));
      pkAttr = ix.partitionAttribute();
      skAttr = ix.sortAttribute();
      indexName = TableNames.indexName(ix.name());
    } else {
      pkAttr = table.keySchema().partitionName();
      skAttr = table.keySchema().sortName().orElse(null);
    }
    KeyRange r = q.range();
    Expressions ex = new Expressions();
    StringBuilder kc =
        new StringBuilder(ex.name(pkAttr)).append(" = ").append(ex.value(q.partition()));
    boolean filterBounds = false;
    if (r.prefix() != null || r.lower() != null || r.upper() != null) {
      if (skAttr == null) {
        throw new InvalidRequestException(
            "table " + table.ref() + " has no sort key; a query cannot have a sort range");
      }
      String sk = ex.name(skAttr);
      if (r.prefix() != null) {
        kc.append(" AND begins_with(")
            .append(sk)
            .append(", ")
            .append(ex.value(r.prefix()))
            .append(')');
      } else if (r.lower() != null && r.upper() != null) {
        int c = KeyValue.compare(r.lower(), r.upper());
        if (c > 0 || (c == 0 && !(r.lowerInclusive() && r.upperInclusive()))) {
          return new QueryResult(List.of(), false);
        }
        kc.append(" AND ")
            .append(sk)
            .append(" BETWEEN ")
            .append(ex.value(r.lower()))
            .append(" AND ")
            .append(ex.value(r.upper()));
        // DynamoDB has no half-open BETWEEN: drop the endpoints of exclusive bounds here.
        filterBounds = !(r.lowerInclusive() && r.upperInclusive());
      } else if (r.lower() != null) {
        kc.append(" AND ")
            .append(sk)
            .append(r.lowerInclusive() ? " >= " : " > ")
            .append(ex.value(r.lower()));
      } else {
        kc.append(" AND ")
            .append(sk)
            .append(r.upperInclusive() ? " <= " : " < ")
            .append(ex.value(r.upper()));
      }
    }
    Map<String, AttributeValue> start = null;
    if (q.exclusiveStart() != null) {
      start = AttributeMapper.keyOf(table.keySchema(), q.exclusiveStart().key());
      if (indexName != null) {
        if (q.exclusiveStart().indexSort() == null) {
          throw new InvalidRequestException("an index query position needs the index sort value");
        }
        start.put(pkAttr, AttributeMapper.toNative(q.partition()));
        start.put(skAttr, AttributeMapper.toNative(q.exclusiveStart().indexSort()));
      }
    }
    List<StoredItem> out = new ArrayList<>(Math.min(q.limit(), 1000));
    while (true) {
      QueryRequest.Builder req =
          QueryRequest.builder()
              .tableName(physical)
              .keyConditionExpression(kc.toString())
              .expressionAttributeNames(ex.attributeNames())
              .expressionAttributeValues(ex.attributeValuesOrNull())
              .scanIndexForward(!q.descending())
              .limit(q.limit() - out.size())
              .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
      if (indexName != null) {
        req.indexName(indexName);
      } else {
        req.consistentRead(q.consistentRead());
      }
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
        if (filterBounds && !inBounds(r, item.get(skAttr))) {
          continue;
        }
        out.add(Stored.of(item));
      }
      boolean lek = resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty();
      if (out.size() >= q.limit() || !lek) {
        return new QueryResult(out, lek);
      }
      start = resp.lastEvaluatedKey();
    }
  }

  private static boolean inBounds(KeyRange r, AttributeValue sort) {
    return sort != null
        && AttributeMapper.fromNative(sort) instanceof KeyValue kv
        && kv.type() == r.lower().type()
        && r.contains(kv);
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
