package dev.stowage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * Index queries with sort bounds on the memory driver start at their range (the driver narrows its
 * ordered map) and return exactly what a scan of the whole partition would, with runs of equal sort
 * values, inclusive and exclusive bounds, both directions and every page size.
 */
class MemoryIndexRangeTest {
  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();
  private final Table table =
      store.ensureTable(
          TableSpec.builder("scores", KeySchema.of("id", AttributeType.STRING))
              .index("byGroup", List.of("group"), List.of("score"))
              .build());

  /** 60 items of group g, scores 0..9 six times each; 20 of group h. */
  private void fill() {
    for (int i = 0; i < 80; i++) {
      table.put(
          Item.builder()
              .put("id", String.format("i%02d", i))
              .put("group", i < 60 ? "g" : "h")
              .put("score", i % 10)
              .build());
    }
  }

  private List<String> read(SortCondition sort, boolean descending, int limit) {
    Query.Builder q =
        Query.index("byGroup")
            .partition(AttributeValue.of("g"))
            .limit(limit)
            .descending(descending);
    if (sort != null) {
      q.sort(sort);
    }
    List<String> out = new ArrayList<>();
    Page p = table.query(q.build());
    p.items().forEach(i -> out.add(i.getString("id")));
    while (descending ? p.hasBefore() : p.hasAfter()) {
      p = table.page((descending ? p.before() : p.after()).orElseThrow());
      p.items().forEach(i -> out.add(i.getString("id")));
    }
    return out;
  }

  private static List<String> expected(IntPredicate score, boolean descending) {
    List<int[]> hits = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      if (score.test(i % 10)) {
        hits.add(new int[] {i % 10, i});
      }
    }
    Comparator<int[]> order = Comparator.<int[]>comparingInt(h -> h[0]).thenComparingInt(h -> h[1]);
    hits.sort(descending ? order.reversed() : order);
    return hits.stream().map(h -> String.format("i%02d", h[1])).toList();
  }

  private static AttributeValue.NumberValue n(int v) {
    return AttributeValue.of(v);
  }

  @Test
  void boundedQueriesReturnExactlyTheirRangeInEveryDirectionAndPageSize() {
    fill();
    for (boolean desc : new boolean[] {false, true}) {
      for (int limit : new int[] {1, 4, 7, 100}) {
        assertThat(read(null, desc, limit)).isEqualTo(expected(s -> true, desc));
        assertThat(read(SortCondition.ge(n(3)), desc, limit))
            .isEqualTo(expected(s -> s >= 3, desc));
        assertThat(read(SortCondition.gt(n(3)), desc, limit)).isEqualTo(expected(s -> s > 3, desc));
        assertThat(read(SortCondition.lt(n(6)), desc, limit)).isEqualTo(expected(s -> s < 6, desc));
        assertThat(read(SortCondition.le(n(6)), desc, limit))
            .isEqualTo(expected(s -> s <= 6, desc));
        assertThat(read(SortCondition.eq(n(5)), desc, limit))
            .isEqualTo(expected(s -> s == 5, desc));
        assertThat(read(SortCondition.between(n(2), n(7)), desc, limit))
            .isEqualTo(expected(s -> s >= 2 && s <= 7, desc));
        assertThat(read(SortCondition.gt(n(9)), desc, limit)).isEmpty();
      }
    }
  }
}
