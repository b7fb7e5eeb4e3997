package dev.stowage.dynamodb;

import dev.stowage.IndexSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Creates tables with the raw client, as an application's own tools would: the layout's key schema,
 * a GSI per native index (projecting ALL, or only keys for a KEYS_ONLY index), and the GSIs of the
 * indexes Stowage maintains exactly as the driver would create them.
 */
final class NativeTables {
  private NativeTables() {}

  static void create(DynamoDbClient client, String physical, TableLayout layout) {
    Map<String, ScalarAttributeType> defs = new LinkedHashMap<>();
    var ks = layout.keySchema();
    defs.put(ks.partitionName(), scalar(ks.partitionType()));
    ks.sortName().ifPresent(s -> defs.put(s, scalar(ks.sortType().orElseThrow())));
    List<KeySchemaElement> keys = new ArrayList<>();
    keys.add(key(ks.partitionName(), KeyType.HASH));
    ks.sortName().ifPresent(s -> keys.add(key(s, KeyType.RANGE)));
    List<GlobalSecondaryIndex> gsis = new ArrayList<>();
    for (IndexLayout ix : layout.indexes()) {
      List<KeySchemaElement> gk = new ArrayList<>();
      defs.put(ix.partitionAttribute(), scalar(ix.partitionType()));
      gk.add(key(ix.partitionAttribute(), KeyType.HASH));
      if (ix.sortAttribute() != null) {
        defs.put(ix.sortAttribute(), scalar(ix.sortType()));
        gk.add(key(ix.sortAttribute(), KeyType.RANGE));
      }
      boolean keysOnly = ix.isNative() && ix.projection() == IndexSpec.Projection.KEYS_ONLY;
      gsis.add(
          GlobalSecondaryIndex.builder()
              .indexName(ix.isNative() ? ix.nativeName() : "__ix_" + ix.name())
              .keySchema(gk)
              .projection(
                  Projection.builder()
                      .projectionType(keysOnly ? ProjectionType.KEYS_ONLY : ProjectionType.ALL)
                      .build())
              .build());
    }
    List<AttributeDefinition> ad = new ArrayList<>();
    defs.forEach(
        (n, t) -> ad.add(AttributeDefinition.builder().attributeName(n).attributeType(t).build()));
    client.createTable(
        b -> {
          b.tableName(physical)
              .attributeDefinitions(ad)
              .keySchema(keys)
              .billingMode(BillingMode.PAY_PER_REQUEST);
          if (!gsis.isEmpty()) {
            b.globalSecondaryIndexes(gsis);
          }
        });
    while (client.describeTable(b -> b.tableName(physical)).table().tableStatus()
        != TableStatus.ACTIVE) {
      Thread.onSpinWait();
    }
  }

  static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  static ScalarAttributeType scalar(AttributeType t) {
    return switch (t) {
      case STRING -> ScalarAttributeType.S;
      case NUMBER -> ScalarAttributeType.N;
      default -> ScalarAttributeType.B;
    };
  }
}
