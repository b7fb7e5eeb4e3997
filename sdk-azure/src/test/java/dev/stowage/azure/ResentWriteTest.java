package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.WriteOptions;
import dev.stowage.test.Emulators;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * On a client the application configured with the SDK's own retries on, a conditional item write
 * whose response is lost is resent by the SDK, and the resent request fails its condition on the
 * first one's effect. The write landed: its item must stay in the index.
 */
class ResentWriteTest {
  static final KeySchema SCHEMA = KeySchema.of("pk", AttributeType.STRING);

  /** Set to lose the response of the next conditional item write (the SDK then resends it). */
  static final AtomicBoolean LOSE_NEXT = new AtomicBoolean();

  static Stowage store;

  @BeforeAll
  static void start() {
    HttpPipelinePolicy loseFirstResponse =
        (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
          var request = context.getHttpRequest();
          boolean itemWrite =
              (request.getHttpMethod() == HttpMethod.PUT
                      || request.getHttpMethod() == HttpMethod.PATCH)
                  && request.getHeaders().getValue("If-Match") != null
                  && request.getUrl().getPath().contains("PartitionKey=");
          Mono<HttpResponse> sent = next.process();
          if (itemWrite && LOSE_NEXT.compareAndSet(true, false)) {
            return sent.flatMap(
                r -> Mono.error(new IOException("connection reset (simulated lost response)")));
          }
          return sent;
        };
    TableServiceClient service =
        new TableServiceClientBuilder()
            .connectionString(Emulators.shared().azurite().connectionString())
            // The SDK's own retries on, as an application may configure them.
            .retryOptions(new RetryOptions(new FixedDelayOptions(2, Duration.ofMillis(1))))
            .addPolicy(loseFirstResponse)
            .buildClient();
    store =
        Stowage.builder(AzureTablesDriver.of(service))
            .namespace(Layouts.freshName("resent").replace("-", ""))
            .build();
  }

  @AfterAll
  static void stop() {
    store.close();
  }

  @Test
  void aConditionalWriteResentByTheSdkStaysInTheIndex() {
    Table t =
        store.ensureTable(
            TableSpec.builder("docs", SCHEMA)
                .index(IndexSpec.of("byA", java.util.List.of("a"), java.util.List.of("b")))
                .build());
    t.put(Item.builder().put("pk", "p").put("a", "x").put("b", "1").build());
    LOSE_NEXT.set(true);
    t.put(
        Item.builder().put("pk", "p").put("a", "x").put("b", "2").build(),
        WriteOptions.when(Condition.exists("pk")));
    assertThat(LOSE_NEXT.get()).as("a response was lost").isFalse();
    assertThat(t.get(dev.stowage.item.Key.of("p")).orElseThrow().getString("b")).isEqualTo("2");
    assertThat(
            t.queryAll(Query.index("byA").partition(AttributeValue.of("x")).build())
                .map(i -> i.getString("b"))
                .toList())
        .containsExactly("2");
  }
}
