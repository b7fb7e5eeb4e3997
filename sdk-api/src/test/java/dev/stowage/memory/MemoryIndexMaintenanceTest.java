package dev.stowage.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IndexSpec;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The memory driver's indexes follow every write: an item whose indexed values stay keeps its
 * entry, one whose values change moves, one that loses an indexed attribute leaves, a delete
 * removes it, and indexes added to a table with items keep the entries of the ones it had. Checked
 * against a model of the items after each step of a random sequence of writes.
 */
class MemoryIndexMaintenanceTest {
  private static final List<String> GROUPS = List.of("a", "b");

  private final Stowage store = Stowage.builder(MemoryDriver.create()).build();

  private static TableSpec spec(boolean withCityIndex) {
    TableSpec.Builder b =
        TableSpec.builder("people", KeySchema.of("id", AttributeType.STRING))
            .index(IndexSpec.of("byGroup", List.of("group"), List.of("score")));
    if (withCityIndex) {
      b.index(IndexSpec.of("byCity", List.of("city"), List.of("id")));
    }
    return b.build();
  }

  @Test
  void openingWithAMissingIndexSaysWhatAddsAndWhatFillsIt() {
    Table t = store.ensureTable(spec(false));
    t.put(
        Item.builder().put("id", "p1").put("group", "a").put("score", 1).put("city", "x").build());
    assertThatThrownBy(() -> store.table(spec(true)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining(
            "index 'byCity' is missing (Stowage.ensureTable adds it; Table.backfillIndexes indexes"
                + " the items written before)");
    // As the message says: ensureTable adds the index without indexing p1, the backfill does.
    Table withCity = store.ensureTable(spec(true));
    assertThat(query(withCity, "byCity", "x")).isEmpty();
    withCity.backfillIndexes(MaintenanceJob.Options.DEFAULT).run();
    assertThat(query(withCity, "byCity", "x")).containsExactly("p1");
  }

  /** The ids the index query of {@code index} returns for a partition value, in its order. */
  private static List<String> query(Table t, String index, String partition) {
    List<String> out = new ArrayList<>();
    Page p = t.query(Query.index(index).partition(AttributeValue.of(partition)).limit(7).build());
    p.items().forEach(i -> out.add(i.getString("id")));
    while (p.hasAfter()) {
      p = t.page(p.after().orElseThrow());
      p.items().forEach(i -> out.add(i.getString("id")));
    }
    return out;
  }

  /** What byGroup must hold for a group, from the model: by score, then id. */
  private static List<String> expectedByGroup(Map<String, Item> model, String group) {
    return model.values().stream()
        .filter(i -> i.has("group") && i.has("score") && i.getString("group").equals(group))
        .sorted(
            Comparator.comparing((Item i) -> i.getNumber("score"))
                .thenComparing(i -> i.getString("id")))
        .map(i -> i.getString("id"))
        .toList();
  }

  private static List<String> expectedByCity(Map<String, Item> model, String city) {
    return model.values().stream()
        .filter(i -> i.has("city") && i.getString("city").equals(city))
        .map(i -> i.getString("id"))
        .sorted()
        .toList();
  }

  private static Item randomItem(Random r, String id) {
    Item.Builder b = Item.builder().put("id", id).put("city", r.nextBoolean() ? "Bern" : "Basel");
    if (r.nextInt(5) > 0) {
      b.put("group", GROUPS.get(r.nextInt(GROUPS.size())));
    }
    if (r.nextInt(5) > 0) {
      b.put("score", r.nextInt(4)); // few scores: unchanged values are common
    }
    return b.build();
  }

  private void check(Table t, Map<String, Item> model, boolean withCityIndex) {
    for (String g : GROUPS) {
      assertThat(query(t, "byGroup", g)).as("byGroup %s", g).isEqualTo(expectedByGroup(model, g));
    }
    if (withCityIndex) {
      for (String c : List.of("Bern", "Basel")) {
        assertThat(query(t, "byCity", c)).as("byCity %s", c).isEqualTo(expectedByCity(model, c));
      }
    }
  }

  @Test
  void indexesFollowEveryWrite() {
    Table t = store.ensureTable(spec(true));
    Map<String, Item> model = new TreeMap<>();
    Random r = new Random(17);
    for (int step = 0; step < 600; step++) {
      String id = "p" + r.nextInt(25);
      if (r.nextInt(6) == 0) {
        t.delete(Key.of(id));
        model.remove(id);
      } else if (r.nextInt(4) == 0 && model.containsKey(id)) {
        // The same indexed values again, other attributes changed: the entries stay.
        Item same = model.get(id).toBuilder().put("note", "n" + step).build();
        t.put(same);
        model.put(id, same);
      } else {
        Item item = randomItem(r, id);
        t.put(item);
        model.put(id, item);
      }
      if (step % 50 == 49) {
        check(t, model, true);
      }
    }
    check(t, model, true);
  }

  @Test
  void anIndexAddedToATableWithItemsKeepsTheOthersWhole() {
    Table before = store.ensureTable(spec(false));
    Map<String, Item> model = new TreeMap<>();
    Random r = new Random(5);
    for (int i = 0; i < 40; i++) {
      Item item = randomItem(r, "p" + i);
      before.put(item);
      model.put("p" + i, item);
    }
    Table after = store.ensureTable(spec(true));
    check(after, model, false);
    // Writes after the index was added keep both indexes: byCity holds exactly what was written
    // since (items written before carry no values of it until a backfill rewrites them).
    Map<String, Item> since = new TreeMap<>();
    for (int step = 0; step < 200; step++) {
      String id = "p" + r.nextInt(40);
      Item item = randomItem(r, id);
      after.put(item);
      model.put(id, item);
      since.put(id, item);
    }
    check(after, model, false);
    for (String c : List.of("Bern", "Basel")) {
      assertThat(query(after, "byCity", c)).isEqualTo(expectedByCity(since, c));
    }
  }
}
