package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.QueryResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One index query. A GSI orders entries by its sort attribute but leaves entries with equal sort
 * values in no defined order, while Stowage orders them by primary key. So entries are collected in
 * runs of equal sort value, each run is sorted by primary key, and a page only ends after a whole
 * run has been read. Resuming after a position re-reads the run of the position's sort value and
 * skips the keys up to the position, instead of trusting DynamoDB's ExclusiveStartKey order within
 * a run. Long runs of equal sort values therefore cost extra reads at page boundaries; indexes
 * whose sort attributes end with a unique attribute have no runs longer than one.
 *
 * <p>A native index ({@link IndexLayout#isNative()}) is queried the same way on the application's
 * own GSI or LSI, with the raw partition value and sort range on its plain attributes; without a
 * RANGE key its whole partition is one run. Only an LSI is read consistently when asked.
 */
final class IndexQuery {
  /** The sort value of every entry of an index without sort attribute: all one run. */
  private static final KeyValue NO_SORT = dev.stowage.item.AttributeValue.of("");

  private final DynamoDbClient client;
  private final CapacityMeter meter;
  private final TableLayout table;
  private final String physical;
  private final IndexLayout ix;
  private final DriverQuery q;
  private final Comparator<Key> keyOrder;
  private final String indexName;
  private final boolean consistent;

  IndexQuery(
      DynamoDbClient client,
      CapacityMeter meter,
      TableLayout table,
      String physical,
      IndexLayout ix,
      DriverQuery q,
      boolean consistent) {
    this.client = client;
    this.indexName = ix.isNative() ? ix.nativeName() : TableNames.indexName(ix.name());
    this.consistent = consistent;
    this.meter = meter;
    this.table = table;
    this.physical = physical;
    this.ix = ix;
    this.q = q;
    this.keyOrder = q.descending() ? Comparator.reverseOrder() : Comparator.naturalOrder();
  }

  QueryResult run() {
    KeyValue startSort = null;
    Key startKey = null;
    KeyRange range = q.range();
    KeyRange filter = range;
    boolean sorted = ix.sortAttribute() != null;
    if (q.exclusiveStart() != null) {
      startKey = q.exclusiveStart().key();
      if (sorted) {
        startSort = q.exclusiveStart().indexSort();
        if (startSort == null) {
          throw new InvalidRequestException("an index query position needs the index sort value");
        }
        range = resumeRange(range, startSort);
        filter =
            new KeyRange(
                range.lower(),
                range.lowerInclusive(),
                range.upper(),
                range.upperInclusive(),
                q.range().prefix());
      } else {
        startSort = NO_SORT;
      }
    }
    Expressions ex = new Expressions();
    String kc =
        KeyConditions.of(ex, ix.partitionAttribute(), q.partition(), ix.sortAttribute(), range);
    if (kc == null) {
      return new QueryResult(List.of(), false);
    }
    List<StoredItem> out = new ArrayList<>();
    List<StoredItem> run = new ArrayList<>();
    KeyValue runSort = null;
    Map<String, AttributeValue> nativeStart = null;
    // One entry beyond the limit tells whether the last run is complete, and a resumed query
    // reads the position's own entry again (its range is inclusive): asking for both at once
    // fills a page with one request unless runs of equal sort values cross the page's end (or the
    // response reaches DynamoDB's 1 MB). A further request asks for the entries still missing,
    // not for a whole page again.
    int first = q.limit() + 1 + (startKey != null ? 1 : 0);
    int ask = first;
    while (true) {
      QueryResponse resp = page(ex, kc, nativeStart, ask);
      for (Map<String, AttributeValue> item : resp.items()) {
        KeyValue sort;
        if (sorted) {
          AttributeValue nativeSort = item.get(ix.sortAttribute());
          if (!KeyConditions.contains(filter, nativeSort)) {
            continue;
          }
          // Compared as Stowage values: DynamoDB may spell one number in several ways.
          sort = (KeyValue) AttributeMapper.fromNative(nativeSort);
        } else {
          sort = NO_SORT;
        }
        StoredItem stored = Stored.of(item);
        if (startKey != null && sort.equals(startSort)) {
          Key k = table.keySchema().keyOf(stored.item());
          if (keyOrder.compare(k, startKey) <= 0) {
            continue;
          }
        }
        if (runSort != null && !runSort.equals(sort)) {
          flush(run, out);
          if (out.size() >= q.limit()) {
            return new QueryResult(out.subList(0, q.limit()), true);
          }
        }
        runSort = sort;
        run.add(stored);
      }
      boolean lek = resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty();
      if (!lek) {
        flush(run, out);
        boolean trimmed = out.size() > q.limit();
        return new QueryResult(trimmed ? out.subList(0, q.limit()) : out, trimmed);
      }
      nativeStart = resp.lastEvaluatedKey();
      int missing = q.limit() + 1 - out.size() - run.size();
      // Past the limit, only the rest of a run of equal sort values is read: of unknown length.
      ask = missing > 0 ? missing : first;
    }
  }

  private QueryResponse page(
      Expressions ex, String kc, Map<String, AttributeValue> start, int limit) {
    // The core's projection (if any) names the keys and the index attributes this class orders by.
    String projection = ex.projection(q.attributes());
    QueryRequest.Builder req =
        QueryRequest.builder()
            .tableName(physical)
            .indexName(indexName)
            .consistentRead(Requests.flag(consistent))
            .keyConditionExpression(kc)
            .projectionExpression(projection)
            .expressionAttributeNames(ex.attributeNames())
            .expressionAttributeValues(ex.attributeValuesOrNull())
            .scanIndexForward(Requests.forward(q.descending()))
            .limit(limit)
            .returnConsumedCapacity(meter.learn(table, physical));
    if (start != null) {
      req.exclusiveStartKey(start);
    }
    try {
      QueryResponse resp = client.query(req.build());
      meter.record(resp.consumedCapacity(), false);
      return resp;
    } catch (SdkException e) {
      throw Errors.translate("Query " + physical + " index " + indexName, e);
    }
  }

  private void flush(List<StoredItem> run, List<StoredItem> out) {
    if (run.size() > 1) {
      run.sort(Comparator.comparing(s -> table.keySchema().keyOf(s.item()), keyOrder));
    }
    out.addAll(run);
    run.clear();
  }

  /**
   * The query's range narrowed to sort values at or beyond the resume position's (inclusive: the
   * rest of the position's run still follows). A prefix range becomes its equivalent bounds, which
   * {@link KeyConditions#contains} still checks against the prefix.
   */
  private KeyRange resumeRange(KeyRange r, KeyValue from) {
    if (!q.descending()) {
      boolean keepLower = r.lower() != null && KeyValue.compare(r.lower(), from) >= 0;
      return new KeyRange(
          keepLower ? r.lower() : from,
          keepLower ? r.lowerInclusive() : true,
          r.upper(),
          r.upperInclusive(),
          null);
    }
    boolean keepUpper = r.upper() != null && KeyValue.compare(r.upper(), from) <= 0;
    return new KeyRange(
        r.lower(),
        r.lowerInclusive(),
        keepUpper ? r.upper() : from,
        keepUpper ? r.upperInclusive() : true,
        null);
  }
}
