package dev.stowage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sort values stored in buckets (docs/FORMAT.md, "Long index values"), on the memory driver with
 * Azure's limits (255-byte index values): a bucket a page holds whole costs no extra request, one
 * cut by the page's end is read again, and both give the items' own order.
 */
class LongSortValuesTest {
  private static final TableSpec SPEC =
      TableSpec.builder("paths", KeySchema.of("id", AttributeType.STRING))
          .index("byPath", List.of("owner"), List.of("path"))
          .build();

  private final Stowage store =
      Stowage.builder(MemoryDriver.builder().limits(MemoryLimits.azure()).build()).build();

  private static final String SHARED = "/" + "x".repeat(400);

  private List<Item> put(Table t) {
    List<Item> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      // Paths sharing 401 bytes (one bucket) in an order their keys do not have.
      all.add(
          Item.builder()
              .put("id", String.format("i%02d", i))
              .put("owner", "o")
              .put("path", SHARED + String.format("/%02d", (i * 7) % 12))
              .build());
    }
    all.add(Item.builder().put("id", "a").put("owner", "o").put("path", "/a").build());
    all.add(Item.builder().put("id", "z").put("owner", "o").put("path", "/z").build());
    t.batchPut(all);
    all.sort(
        Comparator.<Item, String>comparing(i -> i.getString("path"))
            .thenComparing(i -> i.getString("id")));
    return all;
  }

  @Test
  void aBucketThePageHoldsWholeIsOrderedWithoutReadingItAgain() {
    Table t = store.ensureTable(SPEC);
    List<Item> sorted = put(t);
    long before = store.metrics().queries();
    Page page = t.query(Query.index("byPath").partition(AttributeValue.of("o")).limit(50).build());
    assertThat(page.items()).containsExactlyElementsOf(sorted);
    assertThat(store.metrics().queries() - before).as("one request").isEqualTo(1);
  }

  @Test
  void aBucketCutByThePageIsReadAgainAndPagesResumeInsideIt() {
    Table t = store.ensureTable(SPEC);
    List<Item> sorted = put(t);
    for (boolean descending : new boolean[] {false, true}) {
      Query.Builder q = Query.index("byPath").partition(AttributeValue.of("o")).limit(2);
      if (descending) {
        q.descending();
      }
      List<Item> walked = new ArrayList<>();
      Page page = t.query(q.build());
      walked.addAll(page.items());
      while (descending ? page.hasBefore() : page.hasAfter()) {
        page = t.page((descending ? page.before() : page.after()).orElseThrow());
        walked.addAll(page.items());
      }
      List<Item> expected = new ArrayList<>(sorted);
      if (descending) {
        java.util.Collections.reverse(expected);
      }
      assertThat(walked).as(descending ? "descending" : "ascending").isEqualTo(expected);
    }
  }
}
