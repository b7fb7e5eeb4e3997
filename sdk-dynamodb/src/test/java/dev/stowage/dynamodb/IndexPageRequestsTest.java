package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.DeleteJob;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Index cursor pages cost one DynamoDB Query each, as a hand-written ExclusiveStartKey loop does,
 * in both directions, when the index's sort values are distinct; so do a delete job's pages of
 * 1,000 (the largest), which ask DynamoDB for the page, the entry that says whether more follow and
 * the resume position's own entry in one request.
 */
class IndexPageRequestsTest {
  static final AtomicInteger QUERIES = new AtomicInteger();
  static DynamoDbClient client;
  static Stowage stowage;
  static Table events;

  @BeforeAll
  static void setUp() {
    ExecutionInterceptor counter =
        new ExecutionInterceptor() {
          @Override
          public void beforeTransmission(
              Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if ("Query".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
              QUERIES.incrementAndGet();
            }
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
            .overrideConfiguration(c -> c.addExecutionInterceptor(counter))
            .build();
    stowage =
        Stowage.builder(DynamoDbDriver.create(client))
            .namespace("pages" + Long.toString(System.nanoTime() % 1_000_000, 36))
            .build();
    events =
        stowage.ensureTable(
            TableSpec.builder("events", KeySchema.of("id", AttributeType.STRING))
                .index(IndexSpec.of("byFeed", List.of("feed"), List.of("at")))
                .build());
    for (int i = 0; i < 45; i++) {
      events.put(
          Item.builder()
              .put("id", String.format("e%02d", i))
              .put("feed", "f")
              .put("at", 1000 + i)
              .build());
    }
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("events");
    stowage.close();
    client.close();
  }

  private static List<String> ids(Page p) {
    return p.items().stream().map(i -> i.getString("id")).toList();
  }

  @Test
  void everyIndexPageIsOneQueryForwardAndBackward() {
    Query q = Query.index("byFeed").partition(AttributeValue.of("f")).limit(10).build();
    List<String> forward = new ArrayList<>();
    List<Integer> perPage = new ArrayList<>();
    QUERIES.set(0);
    Page p = events.query(q);
    perPage.add(QUERIES.getAndSet(0));
    forward.addAll(ids(p));
    List<Page> pages = new ArrayList<>(List.of(p));
    while (p.hasAfter()) {
      p = events.page(p.after().orElseThrow());
      perPage.add(QUERIES.getAndSet(0));
      forward.addAll(ids(p));
      pages.add(p);
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 45; i++) {
      expected.add(String.format("e%02d", i));
    }
    assertThat(forward).containsExactlyElementsOf(expected);
    assertThat(perPage).hasSize(5).containsOnly(1);

    // Back from the last page: before cursors, also one query a page.
    perPage.clear();
    List<String> backward = new ArrayList<>();
    p = pages.get(pages.size() - 1);
    while (p.hasBefore()) {
      p = events.page(p.before().orElseThrow());
      perPage.add(QUERIES.getAndSet(0));
      backward.addAll(0, ids(p));
    }
    assertThat(backward).containsExactlyElementsOf(expected.subList(0, 40));
    assertThat(perPage).hasSize(4).containsOnly(1);
  }

  @Test
  void deleteJobPagesOfAThousandAreOneQueryEach() {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 2100; i++) {
      items.add(
          Item.builder()
              .put("id", String.format("d%05d", i))
              .put("feed", "expired")
              .put("at", 5000 + i)
              .build());
    }
    events.batchPut(items);
    Query expired = Query.index("byFeed").partition(AttributeValue.of("expired")).build();
    QUERIES.set(0);
    DeleteJob.Progress done =
        events.deleteWhere(expired, new DeleteJob.Options(0, 1000, false, null)).run();
    // Pages of 1,000, 1,000 and 100: the short page is the last.
    assertThat(done.deleted()).isEqualTo(2100);
    assertThat(done.done()).isTrue();
    assertThat(QUERIES.get()).isEqualTo(3);
    assertThat(events.queryAll(expired).count()).isZero();
    assertThat(events.queryAll(Query.index("byFeed").partition(AttributeValue.of("f")).build()))
        .hasSize(45);
  }
}
