package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;

/** TransactWriteItems: every expectation becomes the condition expression of its operation. */
public final class TransactionOps {
  /** DynamoDB's limit on operations per transaction. */
  public static final int MAX_ITEMS = 100;

  private final DynamoDbClient client;
  private final CapacityMeter meter;
  private final Function<TableLayout, String> physicalNames;

  public TransactionOps(
      DynamoDbClient client, CapacityMeter meter, Function<TableLayout, String> physicalNames) {
    this.client = client;
    this.meter = meter;
    this.physicalNames = physicalNames;
  }

  /** Applies the operations atomically. */
  public void write(List<TableLayout> layouts, List<TxOp> ops) {
    if (ops.isEmpty()) {
      return;
    }
    if (ops.size() > MAX_ITEMS) {
      throw new InvalidRequestException(
          "a DynamoDB transaction holds at most " + MAX_ITEMS + " operations, got " + ops.size());
    }
    Map<TableRef, TableLayout> byRef = new HashMap<>();
    layouts.forEach(l -> byRef.put(l.ref(), l));
    List<TransactWriteItem> items = new ArrayList<>(ops.size());
    for (TxOp op : ops) {
      TableLayout layout = byRef.get(op.table());
      if (layout == null) {
        throw new InvalidRequestException(
            "transaction names table " + op.table() + " without its layout");
      }
      items.add(item(layout, physicalNames.apply(layout), op));
    }
    // The most any of the tables asks for: nothing, TOTAL or INDEXES.
    ReturnConsumedCapacity asked = null;
    for (TableLayout l : layouts) {
      ReturnConsumedCapacity a = meter.learn(l, physicalNames.apply(l));
      if (a != null && asked != ReturnConsumedCapacity.INDEXES) {
        asked = a;
      }
    }
    ReturnConsumedCapacity ask = asked;
    TransactWriteItemsResponse resp;
    try {
      resp = client.transactWriteItems(b -> b.transactItems(items).returnConsumedCapacity(ask));
    } catch (SdkException e) {
      throw Errors.translate("TransactWriteItems", e);
    }
    meter.recordAll(resp.consumedCapacity(), true);
  }

  private static TransactWriteItem item(TableLayout layout, String physical, TxOp op) {
    String pk = layout.keySchema().partitionName();
    Expressions ex = new Expressions();
    String cond = ex.expectation(op.expect(), pk);
    if (op instanceof TxOp.Put p) {
      Put.Builder b =
          Put.builder().tableName(physical).item(Stored.toWrite(p.item(), Tokens.next()));
      if (cond != null) {
        b.conditionExpression(cond)
            .expressionAttributeNames(ex.attributeNamesOrNull())
            .expressionAttributeValues(ex.attributeValuesOrNull());
      }
      return TransactWriteItem.builder().put(b.build()).build();
    }
    var key = AttributeMapper.keyOf(layout.keySchema(), op.key());
    if (op instanceof TxOp.Delete) {
      Delete.Builder b = Delete.builder().tableName(physical).key(key);
      if (cond != null) {
        b.conditionExpression(cond)
            .expressionAttributeNames(ex.attributeNamesOrNull())
            .expressionAttributeValues(ex.attributeValuesOrNull());
      }
      return TransactWriteItem.builder().delete(b.build()).build();
    }
    if (op.expect() instanceof Expectation.Any) {
      // A check that always holds still takes part in the transaction (and its conflict checks).
      String n = ex.name(pk);
      cond = "attribute_exists(" + n + ") OR attribute_not_exists(" + n + ")";
    }
    return TransactWriteItem.builder()
        .conditionCheck(
            ConditionCheck.builder()
                .tableName(physical)
                .key(key)
                .conditionExpression(cond)
                .expressionAttributeNames(ex.attributeNamesOrNull())
                .expressionAttributeValues(ex.attributeValuesOrNull())
                .build())
        .build();
  }
}
