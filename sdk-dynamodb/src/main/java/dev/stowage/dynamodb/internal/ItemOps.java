package dev.stowage.dynamodb.internal;

import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Condition;
import dev.stowage.query.Update;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** Single-item operations: GetItem, PutItem, DeleteItem and UpdateItem. */
public final class ItemOps {
  private final DynamoDbClient client;
  private final CapacityMeter meter;

  public ItemOps(DynamoDbClient client, CapacityMeter meter) {
    this.client = client;
    this.meter = meter;
  }

  /** GetItem. */
  public Optional<StoredItem> get(TableLayout table, String physical, Key key, boolean consistent) {
    GetItemResponse resp;
    try {
      resp =
          client.getItem(
              b ->
                  b.tableName(physical)
                      .key(AttributeMapper.keyOf(table.keySchema(), key))
                      .consistentRead(Requests.flag(consistent))
                      .returnConsumedCapacity(meter.learn(table, physical)));
    } catch (SdkException e) {
      throw Errors.translate("GetItem " + physical, e);
    }
    meter.record(resp.consumedCapacity(), false);
    return resp.hasItem() && !resp.item().isEmpty()
        ? Optional.of(Stored.of(resp.item()))
        : Optional.empty();
  }

  /** PutItem with the expectation as a condition expression and a fresh token. */
  public WriteResult put(
      TableLayout table, String physical, Item item, Expectation expect, boolean returnPrevious) {
    String token = Tokens.next();
    Expressions ex = new Expressions();
    String cond = ex.expectation(expect, table.keySchema().partitionName());
    PutItemRequest.Builder req =
        PutItemRequest.builder()
            .tableName(physical)
            .item(Stored.toWrite(item, token))
            .returnValues(returnPrevious ? ReturnValue.ALL_OLD : null)
            .returnConsumedCapacity(meter.learn(table, physical));
    if (cond != null) {
      req.conditionExpression(cond)
          .expressionAttributeNames(ex.attributeNamesOrNull())
          .expressionAttributeValues(ex.attributeValuesOrNull());
    }
    PutItemResponse resp;
    try {
      resp = client.putItem(req.build());
    } catch (SdkException e) {
      throw Errors.translate("PutItem " + physical, e);
    }
    meter.record(resp.consumedCapacity(), true);
    return new WriteResult(
        previous(returnPrevious, resp.hasAttributes(), resp.attributes()), token);
  }

  /** DeleteItem with the expectation as a condition expression. */
  public WriteResult delete(
      TableLayout table, String physical, Key key, Expectation expect, boolean returnPrevious) {
    Expressions ex = new Expressions();
    String cond = ex.expectation(expect, table.keySchema().partitionName());
    DeleteItemRequest.Builder req =
        DeleteItemRequest.builder()
            .tableName(physical)
            .key(AttributeMapper.keyOf(table.keySchema(), key))
            .returnValues(returnPrevious ? ReturnValue.ALL_OLD : null)
            .returnConsumedCapacity(meter.learn(table, physical));
    if (cond != null) {
      req.conditionExpression(cond)
          .expressionAttributeNames(ex.attributeNamesOrNull())
          .expressionAttributeValues(ex.attributeValuesOrNull());
    }
    DeleteItemResponse resp;
    try {
      resp = client.deleteItem(req.build());
    } catch (SdkException e) {
      throw Errors.translate("DeleteItem " + physical, e);
    }
    meter.record(resp.consumedCapacity(), CapacityMeter.Kind.DELETE);
    return new WriteResult(previous(returnPrevious, resp.hasAttributes(), resp.attributes()), null);
  }

  /**
   * UpdateItem; rotates the token. The update and condition go as {@link AttributeUpdates} where
   * those can say them, as expressions otherwise.
   */
  public StoredItem update(
      TableLayout table, String physical, Key key, Update update, Condition condition) {
    return update(table, physical, key, update, condition, true);
  }

  /**
   * UpdateItem as {@link #update(TableLayout, String, Key, Update, Condition)}; with {@code
   * returnItem} false DynamoDB sends no attributes back and the result is null.
   */
  public StoredItem update(
      TableLayout table,
      String physical,
      Key key,
      Update update,
      Condition condition,
      boolean returnItem) {
    String token = Tokens.next();
    UpdateItemRequest.Builder req =
        UpdateItemRequest.builder()
            .tableName(physical)
            .key(AttributeMapper.keyOf(table.keySchema(), key))
            .returnValues(returnItem ? ReturnValue.ALL_NEW : null)
            .returnConsumedCapacity(meter.learn(table, physical));
    Map<String, AttributeValueUpdate> updates =
        AttributeUpdates.of(update, Tokens.ATTRIBUTE, token);
    Map<String, ExpectedAttributeValue> expected =
        updates == null ? null : AttributeUpdates.expected(condition);
    if (expected != null) {
      req.attributeUpdates(updates);
      if (!expected.isEmpty()) {
        req.expected(expected);
        if (expected.size() > 1) {
          req.conditionalOperator(ConditionalOperator.AND);
        }
      }
    } else {
      Expressions ex = new Expressions();
      req.updateExpression(ex.update(update, Tokens.ATTRIBUTE, token));
      if (condition != null) {
        req.conditionExpression(ex.condition(condition));
      }
      req.expressionAttributeNames(ex.attributeNamesOrNull())
          .expressionAttributeValues(ex.attributeValuesOrNull());
    }
    UpdateItemResponse resp;
    try {
      resp = client.updateItem(req.build());
    } catch (SdkException e) {
      throw Errors.translate("UpdateItem " + physical, e);
    }
    meter.record(resp.consumedCapacity(), true);
    return returnItem ? Stored.of(resp.attributes()) : null;
  }

  private static Optional<StoredItem> previous(
      boolean wanted, boolean has, Map<String, AttributeValue> attributes) {
    return wanted && has && !attributes.isEmpty()
        ? Optional.of(Stored.of(attributes))
        : Optional.empty();
  }
}
