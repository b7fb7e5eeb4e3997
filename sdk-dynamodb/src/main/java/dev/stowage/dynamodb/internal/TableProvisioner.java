package dev.stowage.dynamodb.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.NotFoundException;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughput;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Creates, verifies and drops tables. A table gets the layout's key schema and one GSI per index,
 * keyed on the index's synthesized binary attributes; billing is on-demand unless provisioned
 * throughput was configured.
 */
public final class TableProvisioner {
  private static final Duration POLL = Duration.ofMillis(200);
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(TableProvisioner.class);

  private final DynamoDbClient client;
  private final ProvisionedThroughput throughput;
  private final Duration activeTimeout;

  /**
   * @param throughput provisioned throughput for the table and each GSI, or null for on-demand
   */
  public TableProvisioner(
      DynamoDbClient client, ProvisionedThroughput throughput, Duration activeTimeout) {
    this.client = client;
    this.throughput = throughput;
    this.activeTimeout = activeTimeout;
  }

  /** Creates the table if missing, waits until it is active and checks it matches the layout. */
  public void ensure(TableLayout layout, String physical) {
    TableDescription live = describe(physical);
    if (live == null) {
      try {
        client.createTable(createRequest(layout, physical));
        LOG.info(
            "created DynamoDB table {} for {} with {} index(es)",
            physical,
            layout.ref(),
            layout.indexes().size());
      } catch (ResourceInUseException raced) {
        // Created concurrently by someone else; verify it below like any existing table.
      } catch (SdkException e) {
        throw Errors.translate("CreateTable " + physical, e);
      }
      live = awaitActive(physical);
    } else if (!isActive(live)) {
      live = awaitActive(physical);
    }
    verify(layout, physical, live);
  }

  /** Checks that the table exists and matches the layout; creates nothing. */
  public void open(TableLayout layout, String physical) {
    TableDescription live = describe(physical);
    if (live == null) {
      throw new NotFoundException(
          "DynamoDB table "
              + physical
              + " (Stowage table "
              + layout.ref()
              + ") does not exist; create it with Stowage.ensureTable, or check the name and"
              + " region");
    }
    if (!isActive(live)) {
      live = awaitActive(physical);
    }
    verify(layout, physical, live);
  }

  /** Deletes the table if it exists and waits until it is gone. */
  public void drop(String physical) {
    try {
      client.deleteTable(b -> b.tableName(physical));
    } catch (ResourceNotFoundException gone) {
      return;
    } catch (ResourceInUseException busy) {
      awaitActive(physical);
      drop(physical);
      return;
    } catch (SdkException e) {
      throw Errors.translate("DeleteTable " + physical, e);
    }
    long deadline = System.nanoTime() + activeTimeout.toNanos();
    while (describe(physical) != null) {
      if (System.nanoTime() > deadline) {
        throw new UnavailableException(
            "table " + physical + " still exists " + activeTimeout + " after DeleteTable");
      }
      sleep();
    }
  }

  private TableDescription describe(String physical) {
    try {
      return client.describeTable(b -> b.tableName(physical)).table();
    } catch (ResourceNotFoundException missing) {
      return null;
    } catch (SdkException e) {
      throw Errors.translate("DescribeTable " + physical, e);
    }
  }

  private TableDescription awaitActive(String physical) {
    long deadline = System.nanoTime() + activeTimeout.toNanos();
    while (true) {
      TableDescription d = describe(physical);
      if (d != null && isActive(d)) {
        return d;
      }
      if (System.nanoTime() > deadline) {
        throw new UnavailableException(
            "table " + physical + " did not become ACTIVE within " + activeTimeout);
      }
      sleep();
    }
  }

  private static boolean isActive(TableDescription d) {
    if (d.tableStatus() != TableStatus.ACTIVE) {
      return false;
    }
    for (GlobalSecondaryIndexDescription g : d.globalSecondaryIndexes()) {
      if (g.indexStatus() != null && g.indexStatus() != IndexStatus.ACTIVE) {
        return false;
      }
    }
    return true;
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UnavailableException("interrupted while waiting for a table", e);
    }
  }

  CreateTableRequest createRequest(TableLayout layout, String physical) {
    KeySchema ks = layout.keySchema();
    Map<String, ScalarAttributeType> defs = new LinkedHashMap<>();
    defs.put(ks.partitionName(), scalar(ks.partitionType()));
    ks.sortName().ifPresent(s -> defs.put(s, scalar(ks.sortType().orElseThrow())));
    List<KeySchemaElement> keys = new ArrayList<>();
    keys.add(key(ks.partitionName(), KeyType.HASH));
    ks.sortName().ifPresent(s -> keys.add(key(s, KeyType.RANGE)));
    List<GlobalSecondaryIndex> gsis = new ArrayList<>();
    for (IndexLayout ix : layout.indexes()) {
      defs.put(ix.partitionAttribute(), ScalarAttributeType.B);
      defs.put(ix.sortAttribute(), ScalarAttributeType.B);
      GlobalSecondaryIndex.Builder g =
          GlobalSecondaryIndex.builder()
              .indexName(TableNames.indexName(ix.name()))
              .keySchema(
                  key(ix.partitionAttribute(), KeyType.HASH),
                  key(ix.sortAttribute(), KeyType.RANGE))
              .projection(projection(ix));
      if (throughput != null) {
        g.provisionedThroughput(throughput);
      }
      gsis.add(g.build());
    }
    List<AttributeDefinition> attributeDefinitions = new ArrayList<>();
    defs.forEach(
        (n, t) ->
            attributeDefinitions.add(
                AttributeDefinition.builder().attributeName(n).attributeType(t).build()));
    CreateTableRequest.Builder b =
        CreateTableRequest.builder()
            .tableName(physical)
            .attributeDefinitions(attributeDefinitions)
            .keySchema(keys);
    if (!gsis.isEmpty()) {
      b.globalSecondaryIndexes(gsis);
    }
    if (throughput == null) {
      b.billingMode(BillingMode.PAY_PER_REQUEST);
    } else {
      b.billingMode(BillingMode.PROVISIONED).provisionedThroughput(throughput);
    }
    return b.build();
  }

  /**
   * Every GSI projects ALL. A KEYS_ONLY index must still return the index's own source attributes
   * and the token attribute, and an {@link IndexLayout} names only the synthesized attributes, so
   * an INCLUDE projection cannot be derived from it; the core projects KEYS_ONLY results itself.
   */
  private static Projection projection(IndexLayout ix) {
    return Projection.builder().projectionType(ProjectionType.ALL).build();
  }

  private void verify(TableLayout layout, String physical, TableDescription live) {
    List<String> problems = new ArrayList<>();
    Map<String, ScalarAttributeType> types = new HashMap<>();
    live.attributeDefinitions().forEach(d -> types.put(d.attributeName(), d.attributeType()));
    KeySchema ks = layout.keySchema();
    checkKey(
        problems,
        "table",
        live.keySchema(),
        types,
        ks.partitionName(),
        scalar(ks.partitionType()),
        ks.sortName().orElse(null),
        ks.sortType().map(TableProvisioner::scalar).orElse(null));
    Map<String, GlobalSecondaryIndexDescription> gsis = new HashMap<>();
    live.globalSecondaryIndexes().forEach(g -> gsis.put(g.indexName(), g));
    for (IndexLayout ix : layout.indexes()) {
      String gsiName = TableNames.indexName(ix.name());
      GlobalSecondaryIndexDescription g = gsis.get(gsiName);
      if (g == null) {
        problems.add(
            "index '"
                + ix.name()
                + "' has no global secondary index '"
                + gsiName
                + "' (create it with UpdateTable: HASH "
                + ix.partitionAttribute()
                + " (B), RANGE "
                + ix.sortAttribute()
                + " (B))");
        continue;
      }
      checkKey(
          problems,
          "index '" + ix.name() + "'",
          g.keySchema(),
          types,
          ix.partitionAttribute(),
          ScalarAttributeType.B,
          ix.sortAttribute(),
          ScalarAttributeType.B);
      ProjectionType pt = g.projection() == null ? null : g.projection().projectionType();
      if (pt != ProjectionType.ALL) {
        problems.add("index '" + ix.name() + "' needs projection ALL but the GSI has " + pt);
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidRequestException(
          "DynamoDB table "
              + physical
              + " disagrees with the table spec: "
              + String.join("; ", problems));
    }
  }

  private static void checkKey(
      List<String> problems,
      String what,
      List<KeySchemaElement> live,
      Map<String, ScalarAttributeType> types,
      String hash,
      ScalarAttributeType hashType,
      String range,
      ScalarAttributeType rangeType) {
    String liveHash = null;
    String liveRange = null;
    for (KeySchemaElement e : live) {
      if (e.keyType() == KeyType.HASH) {
        liveHash = e.attributeName();
      } else if (e.keyType() == KeyType.RANGE) {
        liveRange = e.attributeName();
      }
    }
    String expected = describeKey(hash, hashType, range, rangeType);
    String actual =
        describeKey(
            liveHash,
            types.get(liveHash),
            liveRange,
            liveRange == null ? null : types.get(liveRange));
    if (!expected.equals(actual)) {
      problems.add(what + " key is " + actual + " but the spec needs " + expected);
    }
  }

  private static String describeKey(
      String hash, ScalarAttributeType ht, String range, ScalarAttributeType rt) {
    return "HASH "
        + hash
        + " ("
        + ht
        + ")"
        + (range == null ? ", no RANGE key" : ", RANGE " + range + " (" + rt + ")");
  }

  private static KeySchemaElement key(String name, KeyType type) {
    return KeySchemaElement.builder().attributeName(name).keyType(type).build();
  }

  static ScalarAttributeType scalar(AttributeType t) {
    return switch (t) {
      case STRING -> ScalarAttributeType.S;
      case NUMBER -> ScalarAttributeType.N;
      case BINARY -> ScalarAttributeType.B;
      default -> throw new InvalidRequestException("key type " + t + " is not S, N or B");
    };
  }
}
