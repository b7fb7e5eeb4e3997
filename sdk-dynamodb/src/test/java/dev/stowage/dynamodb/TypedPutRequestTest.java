package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Stowage;
import dev.stowage.spi.TableRef;
import dev.stowage.test.Emulators;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;
import dev.stowage.typed.TypedSchema;
import dev.stowage.typed.TypedTable;
import dev.stowage.typed.Version;
import java.lang.invoke.MethodHandles;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * What a typed put sends to DynamoDB: one UpdateItem in AttributeUpdates that asks for no item back
 * (the result is built from the instance), and attributes another writer added survive it.
 */
class TypedPutRequestTest {
  @StowageTable("profiles")
  record Profile(@PartitionKey String id, @SortKey long n, String name, BigDecimal score) {}

  @StowageTable("accounts")
  record Account(@PartitionKey String id, String owner, @Version long version) {}

  static final List<Object> REQUESTS = new CopyOnWriteArrayList<>();
  static DynamoDbClient client;
  static DynamoDbDriver driver;
  static Stowage stowage;

  @BeforeAll
  static void setUp() {
    ExecutionInterceptor recorder =
        new ExecutionInterceptor() {
          @Override
          public void beforeExecution(
              Context.BeforeExecution context, ExecutionAttributes attributes) {
            REQUESTS.add(context.request());
          }
        };
    client =
        DynamoDbClient.builder()
            .endpointOverride(Emulators.shared().dynamoDb().endpoint())
            .region(software.amazon.awssdk.regions.Region.US_EAST_1)
            .credentialsProvider(
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                        "local", "local")))
            .overrideConfiguration(c -> c.addExecutionInterceptor(recorder))
            .build();
    driver = DynamoDbDriver.create(client);
    stowage = Stowage.builder(driver).namespace(Emulators.shared().newNamespace()).build();
  }

  @AfterAll
  static void tearDown() {
    stowage.close();
    client.close();
  }

  @Test
  void aTypedPutIsOneUpdateThatReadsNothingBackAndKeepsOthersAttributes() {
    TypedTable<Profile> profiles =
        stowage.ensureTable(
            TypedSchema.builder(Profile.class).lookup(MethodHandles.lookup()).build());
    String physical = driver.physicalTableName(new TableRef(stowage.namespace(), "profiles"));
    Profile first = new Profile("p1", 7, "Ada", new BigDecimal("1.50"));
    REQUESTS.clear();
    Profile stored = profiles.put(first);
    assertThat(REQUESTS).hasSize(1);
    UpdateItemRequest req = (UpdateItemRequest) REQUESTS.get(0);
    // Nothing asked back: ReturnValues is left out (NONE, DynamoDB's default).
    assertThat(req.returnValues()).isNull();
    assertThat(req.updateExpression()).isNull();
    assertThat(req.attributeUpdates()).containsKeys("name", "score");
    // The instance as stored, as a read gives it (numbers as DynamoDB keeps them).
    assertThat(stored).isEqualTo(profiles.get(profiles.keyOf(first)).orElseThrow());
    assertThat(stored.score()).isEqualByComparingTo("1.5");

    client.updateItem(
        b ->
            b.tableName(physical)
                .key(Map.of("id", AttributeValue.fromS("p1"), "n", AttributeValue.fromN("7")))
                .updateExpression("SET audit = :a")
                .expressionAttributeValues(Map.of(":a", AttributeValue.fromS("billing"))));
    Profile second = profiles.put(new Profile("p1", 7, "Ada L.", null));
    assertThat(second).isEqualTo(new Profile("p1", 7, "Ada L.", null));
    Map<String, AttributeValue> raw =
        client
            .getItem(
                b ->
                    b.tableName(physical)
                        .key(
                            Map.of(
                                "id", AttributeValue.fromS("p1"), "n", AttributeValue.fromN("7")))
                        .consistentRead(true))
            .item();
    assertThat(raw.get("audit").s()).isEqualTo("billing");
    assertThat(raw.get("name").s()).isEqualTo("Ada L.");
    assertThat(raw).doesNotContainKey("score");
  }

  @Test
  void aVersionedTypedPutReturnsTheNewVersion() {
    TypedTable<Account> accounts =
        stowage.ensureTable(
            TypedSchema.builder(Account.class).lookup(MethodHandles.lookup()).build());
    Account v1 = accounts.put(new Account("a1", "ada", 0));
    assertThat(v1.version()).isEqualTo(1);
    Account v2 = accounts.put(new Account("a1", "bob", v1.version()));
    assertThat(v2).isEqualTo(new Account("a1", "bob", 2));
    assertThat(accounts.get(accounts.key("a1")).orElseThrow()).isEqualTo(v2);
  }
}
