package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * A migration into an indexed Azure table hands the driver each page's copies in one call, which it
 * packs into full transactions per partition: the requests per 100 items are those of a raw client
 * grouping the same rows, not one transaction per partition of every 100 items. A run that fails in
 * the middle of such a call (some of its transactions in, some not) resumes to an exact copy and an
 * exact index. Requests are counted, and failures injected, in the Azure client's pipeline.
 */
class AzureCopyCallsTest {
  static final TableSpec SPEC =
      TableSpec.builder("ledger", KeySchema.of("account", STRING, "seq", NUMBER))
          .index("byDay", List.of("day"), List.of("seq"))
          .build();

  /** {@code $batch} requests sent to Azurite (entity-group transactions). */
  static final AtomicInteger BATCHES = new AtomicInteger();

  /** {@code $batch} requests after which every further one fails as a broken connection. */
  static final AtomicInteger FAIL_AFTER = new AtomicInteger(Integer.MAX_VALUE);

  static final HttpPipelinePolicy COUNT_AND_FAIL =
      (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
        var r = context.getHttpRequest();
        if (r.getHttpMethod() == HttpMethod.POST && r.getUrl().getPath().endsWith("$batch")) {
          if (BATCHES.incrementAndGet() > FAIL_AFTER.get()) {
            return Mono.<HttpResponse>error(new IOException("simulated connection failure"));
          }
        }
        return next.process();
      };

  static AzureTablesDriver azure;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    azure =
        AzureTablesDriver.of(
            new TableServiceClientBuilder()
                .connectionString(Emulators.shared().azurite().connectionString())
                .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ofMillis(1))))
                .addPolicy(COUNT_AND_FAIL));
  }

  @AfterAll
  static void stop() {
    azure.close();
  }

  /** Accounts of 100 items each, every account's items on 5 days. */
  static MemoryDriver ledger(int accounts) {
    MemoryDriver memory = MemoryDriver.create();
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < accounts * 100; i++) {
      items.add(
          Item.builder()
              .put("account", "acct-" + (i / 100))
              .put("seq", i)
              .put("day", "2026-11-1" + (i % 5))
              .put("memo", "transfer " + i)
              .build());
    }
    Stowage.builder(memory).build().ensureTable(SPEC).batchPut(items);
    return memory;
  }

  private static Migrator.Builder migration(MemoryDriver source, String namespace) {
    return Migrator.builder(SPEC)
        .source(source, null, "")
        .target(azure, null, namespace)
        .pageSize(1000)
        .segments(1)
        .parallelism(4);
  }

  private static String namespace() {
    return "cc" + Long.toString(System.nanoTime(), 36);
  }

  @Test
  void aPageOfCopiesTakesTheTransactionsARawClientGroupingTheRowsWouldSend() {
    MemoryDriver source = ledger(10);
    Migrator m = migration(source, namespace()).build();
    FAIL_AFTER.set(Integer.MAX_VALUE);
    BATCHES.set(0);
    assertThat(m.run().progress().itemsCopied()).isEqualTo(1000);
    // 10 accounts of 100 items: 10 transactions of item rows; 5 days of 200 entries: 10 of index
    // rows. Calls of 100 items, one account's on 5 days each, sent 10 + 10 × 5 = 60.
    assertThat(BATCHES.get()).as("$batch requests for 1,000 items").isEqualTo(20);
    Verification v = m.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
  }

  @Test
  void aRunFailingInTheMiddleOfACallResumesToAnExactCopyAndIndex() {
    MemoryDriver source = ledger(30);
    String ns = namespace();
    Path cp = dir.resolve("to-azure.checkpoint");
    // One writer, so calls go one after the other. Each page of 1,000 is one call of 20
    // transactions, its 10 of index rows first: the second call's index rows and half of its
    // item rows go in, the rest fail.
    Migrator.Builder b =
        migration(source, ns).parallelism(1).checkpoint(cp).retryPolicy(RetryPolicy.NONE);
    BATCHES.set(0);
    FAIL_AFTER.set(35);
    assertThatThrownBy(() -> b.build().run()).isInstanceOf(RuntimeException.class);
    FAIL_AFTER.set(Integer.MAX_VALUE);

    Migrator resumed = b.build();
    Migrator.Report r = resumed.run();
    assertThat(r.progress().itemsSkipped()).as("the first call, recorded").isEqualTo(1000);
    assertThat(r.progress().itemsCopied()).isEqualTo(2000);
    Verification v = resumed.verify();
    assertThat(v.ok()).as(v.toString()).isTrue();
    Table copy = Stowage.builder(azure).namespace(ns).build().table(SPEC);
    for (int d = 0; d < 5; d++) {
      assertThat(
              copy.queryAll(
                      Query.index("byDay").partition(AttributeValue.of("2026-11-1" + d)).build())
                  .count())
          .as("entries of day %d: every item once, none of a version a retried call replaced", d)
          .isEqualTo(600);
    }
  }
}
