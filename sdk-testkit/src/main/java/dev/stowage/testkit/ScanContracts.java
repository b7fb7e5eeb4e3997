package dev.stowage.testkit;

import static dev.stowage.testkit.Helpers.item;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.query.Condition;
import dev.stowage.query.Page;
import dev.stowage.query.Scan;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scans page through a whole table exactly once. */
abstract class ScanContracts extends Contract {

  private static List<Item> scanPages(Table t, Scan scan, int maxPages) {
    List<Item> out = new ArrayList<>();
    Page p = t.scan(scan);
    int pages = 1;
    out.addAll(p.items());
    while (p.hasAfter()) {
      assertThat(p.size()).as("a page before the end is full").isEqualTo(scan.limit());
      assertThat(pages++).as("the scan terminates").isLessThanOrEqualTo(maxPages);
      p = t.page(p.after().orElseThrow());
      out.addAll(p.items());
    }
    assertThat(p.after()).as("a finished scan has no after cursor").isEmpty();
    assertThat(p.before()).as("scan pages have no before cursor").isEmpty();
    return out;
  }

  @Test
  void aScanPagesThroughEverythingExactlyOnce() {
    Table t = table(Helpers.pnSpec("scanned"));
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      items.add(item("part-" + (i % 37), i, "even", Boolean.toString(i % 2 == 0)));
    }
    t.batchPut(items);
    for (int limit : new int[] {7, 100, 1000}) {
      List<Item> seen = scanPages(t, Scan.all().withLimit(limit), 1000 / limit + 3);
      assertThat(new HashSet<>(seen))
          .as("no duplicates at page size %d", limit)
          .hasSize(seen.size());
      assertThat(seen).containsExactlyInAnyOrderElementsOf(items);
    }
    List<Item> even =
        scanPages(t, Scan.all().withLimit(9).withFilter(Condition.eq("even", "true")), 200);
    assertThat(even)
        .containsExactlyInAnyOrderElementsOf(
            items.stream().filter(i -> i.getString("even").equals("true")).toList());
  }

  @Test
  void aScanWithAProjectionReturnsKeysAndTheNamedAttributes() {
    Table t = table(Helpers.pnSpec("scanproj"));
    t.put(item("a", 1, "x", "1", "y", "2"));
    Page p = t.scan(new Scan(10, null, Set.of("y"), true));
    assertThat(p.items()).containsExactly(item("a", 1, "y", "2"));
  }

  @Test
  void anEmptyTableScansToAnEmptyFinishedPage() {
    Table t = table(Helpers.pnSpec("scanempty"));
    Page p = t.scan(Scan.all());
    assertThat(p.items()).isEmpty();
    assertThat(p.hasAfter()).isFalse();
    assertThat(p.after()).isEmpty();
  }
}
