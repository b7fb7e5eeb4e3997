package dev.stowage.bench;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The memory driver, the backend of users' unit tests, against a {@link ConcurrentSkipListMap}
 * doing the same ordering, at 1k, 10k and 50k items: put and get of a small item, a 25-item cursor
 * page at a random place of one partition, and a 25-item index query with a sort bound. Stowage and
 * the map alternate in blocks in one JVM ({@link Alternating}).
 *
 * <p>The table has one partition (so a page's place and the partition's size are the table's) and
 * an index {@code byGroup} over {@code group} (one value) sorted by {@code score}, unique per item.
 * The anchor keeps the same items in a map ordered by key and in a second map ordered by score then
 * key, as an index would be; it reads 25 entries from the same place Stowage's page starts.
 *
 * <p>The put and get anchor stores the very {@link Item} Stowage is given (immutable, so nothing to
 * copy) under the same {@link Key}, whose order is the one the memory driver keeps; its put updates
 * only that map. Stowage's put also keeps the index {@code byGroup} (here the items come back with
 * the same indexed values, so their entries stay where they are), and a reference line puts the
 * same items into a table without an index. The memory driver finds a stored key through a hash
 * table kept beside its ordered maps, so its put (an overwrite here) and get do not walk an ordered
 * map, where the anchor's put and get do: the ratio is Stowage's whole request path against the
 * ordered map the issue names as the anchor.
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.MemoryScaling --rounds 3
 * </pre>
 *
 * Targets (issue 17): put and get at most 3× the map; a bounded index query O(log n), reported as
 * the 50k/1k ratio of its time.
 */
public final class MemoryScaling {
  static final int PAGE = 25;

  private MemoryScaling() {}

  /** The anchor's index order: score, then key. */
  record ScoreKey(long score, Key key) implements Comparable<ScoreKey> {
    @Override
    public int compareTo(ScoreKey o) {
      int c = Long.compare(score, o.score);
      return c != 0 ? c : key.compareTo(o.key);
    }
  }

  static Item item(long i) {
    return Item.builder()
        .put("pk", "p")
        .put("sk", i)
        .put("group", "g")
        .put("score", i * 7)
        .put("name", "Ada Lovelace the " + i + "th")
        .put("email", "p." + i + "@example.org")
        .put("city", "Zürich")
        .build();
  }

  public static void main(String[] argv) {
    Alternating.Args args = Alternating.Args.parse(argv);
    Alternating alt = args.harness();
    List<String> results = new ArrayList<>();
    Map<Integer, Double> indexMicros = new java.util.TreeMap<>();
    for (int n : args.sizes) {
      Stowage stowage =
          Stowage.builder(MemoryDriver.create()).cursorTtl(Duration.ofHours(6)).build();
      Table table =
          stowage.ensureTable(
              TableSpec.builder(
                      "bench", KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER))
                  .index(IndexSpec.of("byGroup", List.of("group"), List.of("score")))
                  .build());
      Table plain =
          stowage.ensureTable(
              TableSpec.builder(
                      "plain", KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER))
                  .build());
      ConcurrentSkipListMap<Key, Item> map = new ConcurrentSkipListMap<>();
      ConcurrentSkipListMap<ScoreKey, Item> byScore = new ConcurrentSkipListMap<>();
      Item[] items = new Item[n];
      Key[] keys = new Key[n];
      for (int i = 0; i < n; i++) {
        items[i] = item(i);
        keys[i] = Key.of("p", i);
        table.put(items[i]);
        plain.put(items[i]);
        map.put(keys[i], items[i]);
        byScore.put(new ScoreKey(i * 7L, keys[i]), items[i]);
      }
      // Cursors of pages starting at every 25th item, read once through Stowage.
      List<String> cursors = new ArrayList<>();
      Page p = table.query(Query.partition("p").limit(PAGE).build());
      while (p.hasAfter()) {
        cursors.add(p.after().orElseThrow());
        p = table.page(p.after().orElseThrow());
      }
      if (cursors.size() != (n - 1) / PAGE) {
        throw new IllegalStateException("paged " + cursors.size() + " times over " + n + " items");
      }
      String params = "{items=" + n + "}";
      int span = Math.max(1, cursors.size());
      results.add(
          alt.compare(
              "memory put vs ConcurrentSkipListMap",
              params,
              i -> table.put(items[mix(i) % n]),
              i -> map.put(keys[mix(i) % n], items[mix(i) % n]),
              3.0));
      results.add(
          alt.compare(
              "memory put, table without index vs map",
              params,
              i -> plain.put(items[mix(i) % n]),
              i -> map.put(keys[mix(i) % n], items[mix(i) % n]),
              Double.NaN));
      results.add(
          alt.compare(
              "memory get vs ConcurrentSkipListMap",
              params,
              i -> table.get(keys[mix(i) % n]).orElseThrow(),
              i -> {
                if (map.get(keys[mix(i) % n]) == null) {
                  throw new IllegalStateException();
                }
              },
              3.0));
      results.add(
          alt.compare(
              "memory cursor page (25) vs map tailMap",
              params,
              i -> check(table.page(cursors.get(mix(i) % span)).size()),
              i -> check(take(map.tailMap(keys[(mix(i) % span + 1) * PAGE - 1], false))),
              Double.NaN));
      String indexTitle = "memory index query, sort bound (25) vs map";
      Alternating.Rounds ix =
          alt.measure(
              indexTitle,
              params,
              List.of(
                  new Alternating.Side(
                      "stowage",
                      i ->
                          check(
                              table
                                  .query(
                                      Query.index("byGroup")
                                          .partition(AttributeValue.of("g"))
                                          .sort(
                                              SortCondition.ge(AttributeValue.of(boundScore(i, n))))
                                          .limit(PAGE)
                                          .build())
                                  .size())),
                  new Alternating.Side(
                      "anchor",
                      i ->
                          check(
                              take(
                                  byScore.tailMap(
                                      new ScoreKey(boundScore(i, n), keys[0]), true))))));
      results.add(
          ix.lines(List.of(Alternating.Pair.time(indexTitle, "stowage", "anchor", Double.NaN))));
      indexMicros.put(n, ix.median("stowage"));
      stowage.close();
    }
    System.out.println();
    System.out.print(Alternating.header(args.rounds));
    results.forEach(System.out::print);
    if (indexMicros.size() > 1) {
      int small = indexMicros.keySet().iterator().next();
      int large = ((java.util.TreeMap<Integer, Double>) indexMicros).lastKey();
      System.out.printf(
          java.util.Locale.ROOT,
          "memory index query with a sort bound: %.1f us at %d items, %.1f us at %d items (%.2fx"
              + " for %dx the items)%n",
          indexMicros.get(small),
          small,
          indexMicros.get(large),
          large,
          indexMicros.get(large) / indexMicros.get(small),
          large / small);
    }
  }

  /** A score at a place that leaves a whole page after it. */
  private static long boundScore(int i, int n) {
    return (mix(i) % Math.max(1, n - PAGE)) * 7L;
  }

  /** Spreads sequence numbers over the table without a pattern the caches could learn. */
  static int mix(int i) {
    return (i * 0x9E3779B1) >>> 1;
  }

  private static int take(Map<?, Item> from) {
    int got = 0;
    List<Item> out = new ArrayList<>(PAGE);
    for (Item it : from.values()) {
      out.add(it);
      if (++got == PAGE) {
        break;
      }
    }
    return out.size();
  }

  private static void check(int size) {
    if (size != PAGE) {
      throw new IllegalStateException("a page of " + size + " items, not " + PAGE);
    }
  }
}
