package dev.stowage.testkit;

import dev.stowage.KeySchema;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Scan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Small shared helpers of the contracts: values, specs, scans, threads. */
final class Helpers {
  private Helpers() {}

  static KeyValue str(String s) {
    return AttributeValue.of(s);
  }

  static KeyValue num(long n) {
    return AttributeValue.of(n);
  }

  static KeyValue num(String decimal) {
    return AttributeValue.of(new BigDecimal(decimal));
  }

  static KeyValue bin(int... unsignedBytes) {
    byte[] b = new byte[unsignedBytes.length];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) unsignedBytes[i];
    }
    return AttributeValue.of(Bytes.wrap(b));
  }

  /** A table keyed by partition "p" and sort "s" of the given types. */
  static TableSpec spec(String name, AttributeType partition, AttributeType sort) {
    return TableSpec.builder(name, KeySchema.of("p", partition, "s", sort)).build();
  }

  /**
   * A table keyed by string "p" and number "s", queried both ways as a feed: its spec declares
   * {@link TableSpec.Builder#descendingQueries}, as an application paging newest first would.
   * Tables of {@link #spec} do not, so the kit walks descending pages both with and without it.
   */
  static TableSpec pnSpec(String name) {
    return TableSpec.builder(
            name, KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER))
        .descendingQueries()
        .build();
  }

  /** An item of a (p, s) table with extra string attributes given as name, value pairs. */
  static Item item(String p, long s, String... nameValues) {
    Item.Builder b = Item.builder().put("p", p).put("s", s);
    for (int i = 0; i < nameValues.length; i += 2) {
      b.put(nameValues[i], nameValues[i + 1]);
    }
    return b.build();
  }

  static Key key(String p, long s) {
    return Key.of(p, s);
  }

  /** Every item of a table, through scan pages of 100. */
  static List<Item> scanAll(Table table) {
    List<Item> out = new ArrayList<>();
    var page = table.scan(Scan.all());
    out.addAll(page.items());
    while (page.hasAfter()) {
      page = table.page(page.after().orElseThrow());
      out.addAll(page.items());
    }
    return out;
  }

  /**
   * A number set of decimals (neither fits a 64-bit integer): the leaf that costs Datastore the
   * most levels (an entity around an array of entities).
   */
  static AttributeValue decimalSet() {
    return AttributeValue.numberSet(List.of(new BigDecimal("0.5"), new BigDecimal("-1E+100")));
  }

  /** {@code leaf} inside {@code levels} maps: exactly {@code levels} levels above the leaf. */
  static AttributeValue nestedMaps(int levels, AttributeValue leaf) {
    AttributeValue v = leaf;
    for (int i = 0; i < levels; i++) {
      v = AttributeValue.map(java.util.Map.of(i % 2 == 0 ? "k" : "𝄞", v));
    }
    return v;
  }

  /**
   * {@code leaf} inside as many lists directly inside lists as make exactly {@code levels} levels
   * (a list in a list counts two; an even count gets a map on top), the shape that costs Datastore
   * the most levels per list.
   */
  static AttributeValue nestedLists(int levels, AttributeValue leaf) {
    AttributeValue v = leaf;
    for (int i = 0; i < (levels + 1) / 2; i++) {
      v = AttributeValue.list(v);
    }
    return levels % 2 == 0 ? AttributeValue.map(java.util.Map.of("top", v)) : v;
  }

  /**
   * Runs {@code tasks} on their own threads and returns their results; rethrows the first failure.
   */
  static <T> List<T> runConcurrently(List<java.util.concurrent.Callable<T>> tasks) {
    ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
    try {
      List<Future<T>> futures = pool.invokeAll(tasks, 5, TimeUnit.MINUTES);
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        try {
          results.add(f.get());
        } catch (java.util.concurrent.CancellationException e) {
          throw new AssertionError("a concurrent task did not finish within 5 minutes", e);
        } catch (java.util.concurrent.ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException re) {
            throw re;
          }
          if (cause instanceof Error err) {
            throw err;
          }
          throw new AssertionError(cause);
        }
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
