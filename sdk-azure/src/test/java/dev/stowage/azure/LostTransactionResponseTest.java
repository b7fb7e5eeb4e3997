package dev.stowage.azure;

import static dev.stowage.azure.ByAItems.bin;
import static dev.stowage.azure.ByAItems.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableServiceClient;
import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.UnavailableException;
import dev.stowage.azure.internal.TableNames;
import dev.stowage.azure.internal.WriteStep;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.DriverQuery;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.KeyRange;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TxOp;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A transaction on an indexed table whose response is lost (the service applied it, the client
 * never heard) keeps the index entries of the items it wrote: the items are in the index once the
 * transaction turns out to have landed. A transaction refused for sure still leaves no entries.
 */
class LostTransactionResponseTest {
  static final KeySchema SCHEMA = ByAItems.SCHEMA;
  static final IndexSpec BY_A = ByAItems.BY_A;

  /**
   * How many entity-group transactions go through before the next one's response is lost (-1: none
   * is). A transaction on an indexed table first writes each new entry in a transaction of its own,
   * then the items in one.
   */
  static final AtomicInteger LOSE_AFTER = new AtomicInteger(-1);

  static TableServiceClient service;
  static AzureTablesDriver driver;

  @BeforeAll
  static void start() {
    HttpPipelinePolicy loseResponse =
        (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
          boolean lose =
              context.getHttpRequest().getHttpMethod() == HttpMethod.POST
                  && context.getHttpRequest().getUrl().getPath().endsWith("$batch")
                  && LOSE_AFTER.getAndUpdate(n -> n >= 0 ? n - 1 : n) == 0;
          Mono<HttpResponse> sent = next.process();
          if (!lose) {
            return sent;
          }
          // The service applies the request; its answer never arrives.
          return sent.flatMap(
              r -> Mono.error(new IOException("connection reset (simulated lost response)")));
        };
    service = AzuriteClients.fastRetrying().addPolicy(loseResponse).buildClient();
    driver = new AzureTablesDriver(service, WriteStep.Hook.NONE);
  }

  @AfterAll
  static void stop() {
    driver.close();
  }

  static List<String> index(TableLayout t, String a) {
    return driver
        .query(t, new DriverQuery("byA", bin(a), KeyRange.ALL, false, 100, null, true))
        .items()
        .stream()
        .map(StoredItem::item)
        .map(
            i ->
                i.getString("pk")
                    + "/"
                    + ((AttributeValue.NumberValue) i.get("sk")).longValue()
                    + "/"
                    + i.getString("b"))
        .toList();
  }

  static TxOp put(TableLayout t, Item item, Expectation expect) {
    return new TxOp.Put(t.ref(), SCHEMA.keyOf(item), item, expect);
  }

  @Test
  void theItemsOfATransactionWhoseResponseWasLostStayInTheIndex() {
    TableLayout t = Layouts.layout("losttx", SCHEMA, BY_A);
    driver.ensureTable(t);
    driver.put(t, item("p", 1, "x", "b1"), Expectation.ANY, false);
    LOSE_AFTER.set(2); // the two entries' transactions, then the items' one
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(t),
                    List.of(
                        put(t, item("p", 1, "x", "b2"), Expectation.ANY),
                        put(t, item("p", 2, "x", "b3"), Expectation.ANY))))
        .isInstanceOf(UnavailableException.class);
    assertThat(LOSE_AFTER.get()).as("the response was lost").isEqualTo(-1);
    assertThat(driver.get(t, SCHEMA.keyOf(item("p", 2, "x", "b3")), true))
        .as("the transaction landed")
        .isPresent();
    assertThat(index(t, "x"))
        .as("the items the transaction wrote, at their new places")
        .containsExactly("p/1/b2", "p/2/b3");
  }

  @Test
  void aTransactionRefusedForSureLeavesNoEntries() {
    TableLayout t = Layouts.layout("refusedtx", SCHEMA, BY_A);
    driver.ensureTable(t);
    driver.put(t, item("p", 1, "x", "b1"), Expectation.ANY, false);
    String stale = driver.get(t, SCHEMA.keyOf(item("p", 1, "x", "b1")), true).orElseThrow().token();
    driver.put(t, item("p", 1, "x", "b2"), Expectation.ANY, false);
    assertThatThrownBy(
            () ->
                driver.transactWrite(
                    List.of(t),
                    List.of(
                        put(t, item("p", 1, "x", "b9"), Expectation.token(stale)),
                        put(t, item("p", 2, "x", "b3"), Expectation.ANY))))
        .isInstanceOf(dev.stowage.ConditionFailedException.class);
    assertThat(
            service.getTableClient(TableNames.indexTable(t.ref())).listEntities().stream()
                .filter(e -> e.getRowKey().startsWith("k"))
                .count())
        .as("only the entry of the stored version")
        .isEqualTo(1);
    assertThat(index(t, "x")).hasSize(1);
  }
}
