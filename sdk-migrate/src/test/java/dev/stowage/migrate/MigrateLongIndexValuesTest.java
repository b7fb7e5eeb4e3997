package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.MaintenanceJob;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.DriverLimits;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Index values longer than one of two backends indexes are stored in forms that depend on the
 * backend's limits: a migration writes the target's forms, so the copy is found by every query and
 * verifies against its source.
 */
class MigrateLongIndexValuesTest {
  private static final TableSpec SPEC =
      TableSpec.builder("links", KeySchema.of("code", STRING))
          .index("byUrl", List.of("url"), List.of())
          .index("byHost", List.of("host"), List.of("url"))
          .build();

  private static Item link(int i, int length) {
    String url = "https://example.com/" + "p".repeat(length - 24) + String.format("/%03d", i);
    return Item.builder()
        .put("code", String.format("c%03d", i))
        .put("url", url)
        .put("host", "example.com")
        .build();
  }

  @Test
  void copiesBetweenBackendsThatIndexDifferentLengthsKeepEveryIndexUsable() {
    for (DriverLimits[] pair :
        List.of(
            new DriverLimits[] {MemoryLimits.datastore(), MemoryLimits.azure()},
            new DriverLimits[] {MemoryLimits.azure(), MemoryLimits.dynamoDb()})) {
      MemoryDriver sourceDriver = MemoryDriver.builder().limits(pair[0]).build();
      MemoryDriver targetDriver = MemoryDriver.builder().limits(pair[1]).build();
      Table source = Stowage.builder(sourceDriver).build().ensureTable(SPEC);
      List<Item> links = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        links.add(link(i, new int[] {100, 400, 1200, 2000}[i % 4]));
      }
      source.batchPut(links);

      Migrator m =
          Migrator.builder(SPEC)
              .source(sourceDriver, null, "")
              .target(targetDriver, null, "")
              .pageSize(7)
              .build();
      Migrator.Report r = m.run();
      assertThat(r.misfits()).isEmpty();
      assertThat(r.progress().itemsCopied()).isEqualTo(30);
      assertThat(m.verify().ok()).isTrue();

      Table target = Stowage.builder(targetDriver).build().table(SPEC);
      for (Item l : links) {
        assertThat(
                target
                    .queryAll(
                        Query.index("byUrl")
                            .partition(AttributeValue.of(l.getString("url")))
                            .build())
                    .toList())
            .containsExactly(l);
      }
      List<Item> byUrl = new ArrayList<>(links);
      byUrl.sort(Comparator.comparing((Item i) -> i.getString("url")));
      assertThat(
              target
                  .queryAll(
                      Query.index("byHost")
                          .partition(AttributeValue.of("example.com"))
                          .sort(SortCondition.beginsWith("https://example.com/ppp"))
                          .limit(4)
                          .build())
                  .toList())
          .containsExactlyElementsOf(byUrl);
      MaintenanceJob.Progress check =
          target.verifyIndexes(MaintenanceJob.Options.DEFAULT.asDryRun()).run();
      assertThat(check.stale() + check.missing()).isZero();
    }
  }

  @Test
  void indexValuesAreComputedInTheTargetsFormsAndStaleOnesReplaced() {
    DriverLimits from = MemoryLimits.datastore();
    DriverLimits to = MemoryLimits.azure();
    MemoryDriver sourceDriver = MemoryDriver.builder().limits(from).build();
    Table source = Stowage.builder(sourceDriver).build().ensureTable(SPEC);
    Item l = link(1, 1200);
    source.put(l);
    TableLayout layout =
        new TableLayout(
            new TableRef("", SPEC.name()),
            SPEC.keySchema(),
            SPEC.indexes().stream().map(IndexLayout::of).toList());
    Item stored = sourceDriver.get(layout, Key.of("c001"), true).orElseThrow().item();
    String p = IndexLayout.of(SPEC.indexes().get(0)).partitionAttribute();
    Item forAzure = StoredItems.withIndexValues(SPEC, to, stored);
    assertThat(forAzure.find(p))
        .as("a 1,200-byte value takes Azure's long form, not Datastore's plain one")
        .isNotEqualTo(stored.find(p));
    assertThat(StoredItems.withIndexValues(SPEC, from, stored)).isEqualTo(stored);
    java.util.Map<String, AttributeValue> changed =
        new java.util.LinkedHashMap<>(stored.attributes());
    changed.put("url", AttributeValue.of("https://other.example/"));
    Item stale = StoredItems.of(changed);
    assertThat(StoredItems.withIndexValues(SPEC, from, stale).find(p))
        .as("stale values are replaced by the ones the item's attributes give")
        .isNotEqualTo(stored.find(p));
  }
}
