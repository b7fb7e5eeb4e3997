package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.Emulators;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A connection failure on the first page of a listing (here the range read a batch write into an
 * indexed table makes of the versions it replaces, once Azure refused to create items that exist)
 * is an {@link UnavailableException}, which the retry policy retries, not an unchecked I/O
 * exception of the Azure SDK that stops the caller.
 */
class ListConnectionFailureTest {
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private Stowage store;

  @AfterEach
  void stop() {
    if (store != null) {
      store.close();
    }
  }

  /** Fails the next {@code failures} range reads of item rows before they reach Azurite. */
  private final HttpPipelinePolicy dropRangeReads =
      (HttpPipelineCallContext context, HttpPipelineNextPolicy next) -> {
        var r = context.getHttpRequest();
        String url = URLDecoder.decode(r.getUrl().toString(), StandardCharsets.UTF_8);
        if (r.getHttpMethod() == HttpMethod.GET
            && url.contains("RowKey ge")
            && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          failed.incrementAndGet();
          return Mono.<HttpResponse>error(new IOException("simulated connection failure"));
        }
        return next.process();
      };

  private Table open(RetryPolicy retry) {
    store =
        Stowage.builder(
                AzureTablesDriver.of(AzuriteClients.fastRetrying().addPolicy(dropRangeReads)))
            .namespace(Emulators.shared().newNamespace())
            .retryPolicy(retry)
            .build();
    return store.ensureTable(
        TableSpec.builder(
                "orders", KeySchema.of("user", AttributeType.STRING, "n", AttributeType.NUMBER))
            .index("byStatus", List.of("status"), List.of("n"))
            .build());
  }

  private static List<Item> orders() {
    List<Item> items = new ArrayList<>();
    for (int n = 0; n < 8; n++) {
      items.add(Item.builder().put("user", "u1").put("n", n).put("status", "open").build());
    }
    return items;
  }

  @Test
  void aFailedRangeReadOfABatchIsUnavailableAndRetried() {
    Table t = open(new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)));
    t.batchPut(orders());
    failures.set(1);
    t.batchPut(orders());
    assertThat(failed.get()).as("the range read was failed once").isEqualTo(1);
    for (int n = 0; n < 8; n++) {
      assertThat(t.get(Key.of("u1", n))).as("item " + n).isPresent();
    }
  }

  @Test
  void withoutRetriesTheFailureIsUnavailable() {
    Table t = open(RetryPolicy.NONE);
    t.batchPut(orders());
    failures.set(1);
    assertThatThrownBy(() -> t.batchPut(orders()))
        .isInstanceOf(UnavailableException.class)
        .hasMessageContaining("listing");
    assertThat(failed.get()).isEqualTo(1);
  }
}
