package dev.stowage.dynamodb.internal;

import dev.stowage.item.Key;
import dev.stowage.spi.BatchGetResult;
import dev.stowage.spi.BatchWriteResult;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * BatchGetItem and BatchWriteItem. Unprocessed keys and writes are handed back to the core, which
 * retries them with backoff.
 */
public final class BatchOps {
  private final DynamoDbClient client;
  private final CapacityMeter meter;

  public BatchOps(DynamoDbClient client, CapacityMeter meter) {
    this.client = client;
    this.meter = meter;
  }

  /** One BatchGetItem call (at most 100 keys). */
  public BatchGetResult get(
      TableLayout table, String physical, List<Key> keys, boolean consistent) {
    if (keys.isEmpty()) {
      return new BatchGetResult(List.of(), List.of());
    }
    List<Map<String, AttributeValue>> nativeKeys = new ArrayList<>(keys.size());
    keys.forEach(k -> nativeKeys.add(AttributeMapper.keyOf(table.keySchema(), k)));
    KeysAndAttributes ka =
        KeysAndAttributes.builder()
            .keys(nativeKeys)
            .consistentRead(Requests.flag(consistent))
            .build();
    BatchGetItemResponse resp;
    try {
      resp =
          client.batchGetItem(
              b ->
                  b.requestItems(Map.of(physical, ka))
                      .returnConsumedCapacity(meter.learn(table, physical)));
    } catch (SdkException e) {
      throw Errors.translate("BatchGetItem " + physical, e);
    }
    meter.recordAll(resp.consumedCapacity(), false);
    List<StoredItem> items = new ArrayList<>(keys.size());
    List<Map<String, AttributeValue>> found = resp.responses().get(physical);
    if (found != null) {
      found.forEach(i -> items.add(Stored.of(i)));
    }
    List<Key> unprocessed = new ArrayList<>();
    KeysAndAttributes left = resp.unprocessedKeys().get(physical);
    if (left != null && left.hasKeys()) {
      left.keys().forEach(k -> unprocessed.add(AttributeMapper.keyFrom(table.keySchema(), k)));
    }
    return new BatchGetResult(items, unprocessed);
  }

  /** One BatchWriteItem call (at most 25 writes to distinct keys); each put gets a fresh token. */
  public BatchWriteResult write(TableLayout table, String physical, List<WriteOp> writes) {
    if (writes.isEmpty()) {
      return BatchWriteResult.DONE;
    }
    List<WriteRequest> requests = new ArrayList<>(writes.size());
    String[] tokens = Tokens.next(writes.size());
    int t = 0;
    for (WriteOp w : writes) {
      if (w instanceof WriteOp.Put p) {
        requests.add(
            WriteRequest.builder()
                .putRequest(
                    PutRequest.builder().item(Stored.toWrite(p.item(), tokens[t++])).build())
                .build());
      } else {
        requests.add(
            WriteRequest.builder()
                .deleteRequest(
                    DeleteRequest.builder()
                        .key(AttributeMapper.keyOf(table.keySchema(), w.key()))
                        .build())
                .build());
      }
    }
    BatchWriteItemResponse resp;
    try {
      resp =
          client.batchWriteItem(
              b ->
                  b.requestItems(Map.of(physical, requests))
                      .returnConsumedCapacity(meter.learn(table, physical)));
    } catch (SdkException e) {
      throw Errors.translate("BatchWriteItem " + physical, e);
    }
    boolean onlyDeletes = writes.stream().allMatch(w -> w instanceof WriteOp.Delete);
    CapacityMeter.Kind kind = onlyDeletes ? CapacityMeter.Kind.DELETE : CapacityMeter.Kind.WRITE;
    if (resp.consumedCapacity() != null) {
      resp.consumedCapacity().forEach(c -> meter.record(c, kind));
    }
    List<WriteRequest> left = resp.unprocessedItems().get(physical);
    if (left == null || left.isEmpty()) {
      return BatchWriteResult.DONE;
    }
    // Keyed only now: most batches leave nothing unprocessed, and a copy writes many batches.
    Map<Key, WriteOp> byKey = new HashMap<>(writes.size() * 2);
    for (WriteOp w : writes) {
      byKey.put(w.key(), w);
    }
    List<WriteOp> unprocessed = new ArrayList<>(left.size());
    for (WriteRequest r : left) {
      Map<String, AttributeValue> k =
          r.putRequest() != null ? r.putRequest().item() : r.deleteRequest().key();
      unprocessed.add(byKey.get(AttributeMapper.keyFrom(table.keySchema(), k)));
    }
    return new BatchWriteResult(unprocessed);
  }
}
