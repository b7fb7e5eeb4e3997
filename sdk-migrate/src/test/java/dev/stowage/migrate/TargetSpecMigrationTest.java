package dev.stowage.migrate;

import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IndexSpec;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.memory.MemoryLimits;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.Query;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.StoredItems;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.WriteOp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target with its own spec: index values computed for the target's indexes from the stored
 * attributes (items other tools wrote carry none; stale and foreign ones are dropped), specs that
 * cannot hold the source's stored forms refused, adopted sides in the checkpoint.
 */
class TargetSpecMigrationTest {
  static final KeySchema KEY = KeySchema.of("shop", STRING, "no", NUMBER);
  static final TableSpec SOURCE =
      TableSpec.builder("orders", KEY).index("byDay", List.of("day"), List.of("no")).build();

  /** The table other tools wrote, as it is: no Stowage indexes. */
  static final TableSpec NATIVE = TableSpec.builder("orders", KEY).build();

  static final TableSpec TARGET =
      TableSpec.builder("orders", KEY)
          .index("byStatus", List.of("status"), List.of("total", "no"))
          .build();

  @TempDir Path dir;

  /** Writes items below the core, as another tool would: no index values at all. */
  static List<Item> writeNatively(MemoryDriver driver, int n) {
    TableLayout layout = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    driver.ensureTable(layout);
    List<Item> items = new ArrayList<>();
    List<WriteOp> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Item.Builder b =
          Item.builder()
              .put("shop", "s" + (i % 3))
              .put("no", i)
              .put("day", "2026-11-" + (10 + i % 4))
              .put("total", i % 7);
      if (i % 10 != 0) {
        b.put("status", i % 2 == 0 ? "open" : "shipped");
      }
      Item item = b.build();
      items.add(item);
      ops.add(new WriteOp.Put(KEY.keyOf(item), item));
    }
    for (int i = 0; i < ops.size(); i += 25) {
      driver.batchWrite(layout, ops.subList(i, Math.min(ops.size(), i + 25)));
    }
    return items;
  }

  static List<Key> expected(List<Item> items, String status, boolean descending) {
    List<Item> hits =
        new ArrayList<>(
            items.stream()
                .filter(i -> i.attributes().get("status") != null)
                .filter(i -> i.getString("status").equals(status))
                .toList());
    java.util.Comparator<Item> order =
        java.util.Comparator.<Item, java.math.BigDecimal>comparing(i -> i.getNumber("total"))
            .thenComparing(i -> i.getNumber("no"))
            .thenComparing(i -> i.getString("shop"));
    hits.sort(descending ? order.reversed() : order);
    return hits.stream().map(KEY::keyOf).toList();
  }

  static List<Key> query(Table t, String status, boolean descending) {
    return t.queryAll(
            Query.index("byStatus")
                .partition(AttributeValue.of(status))
                .descending(descending)
                .limit(7)
                .build())
        .map(KEY::keyOf)
        .toList();
  }

  @Test
  void itemsWithoutIndexValuesGetTheTargetsIndexesAndStaleOnesAreDropped() {
    MemoryDriver source = MemoryDriver.create();
    List<Item> items = writeNatively(source, 200);
    // One item carries values of an index the target does not have, one a stale byStatus value.
    TableLayout raw = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    Map<String, AttributeValue> planted = new LinkedHashMap<>(items.get(1).attributes());
    planted.put("stowage:ix:byDay:p", AttributeValue.of(new byte[] {2, 1, 2, 3, 4}));
    planted.put("stowage:ix:byStatus:p", AttributeValue.of(new byte[] {2, 9, 9, 9, 9}));
    planted.put("stowage:ix:byStatus:s", AttributeValue.of(new byte[] {1}));
    source.batchWrite(
        raw, List.of(new WriteOp.Put(KEY.keyOf(items.get(1)), StoredItems.of(planted))));

    MemoryDriver target = MemoryDriver.builder().limits(MemoryLimits.azure()).build();
    Migrator m =
        Migrator.builder(NATIVE)
            .source(source, null, "")
            .target(target, null, "copy")
            .targetSpec(TARGET)
            .pageSize(30)
            .build();
    Migrator.Report r = m.run();
    assertThat(r.misfits()).isEmpty();
    assertThat(r.progress().itemsCopied()).isEqualTo(200);
    assertThat(m.verify().ok()).isTrue();

    Table copy = Stowage.builder(target).namespace("copy").build().table(TARGET);
    for (String status : List.of("open", "shipped")) {
      for (boolean descending : List.of(false, true)) {
        assertThat(query(copy, status, descending))
            .as(status + (descending ? " descending" : ""))
            .isEqualTo(expected(items, status, descending));
      }
    }
    Item stored =
        target
            .scan(
                new TableLayout(
                    new TableRef("copy", "orders"),
                    KEY,
                    TARGET.indexes().stream().map(IndexLayout::of).toList()),
                new DriverScan(500, null, true))
            .items()
            .stream()
            .map(s -> s.item())
            .filter(i -> KEY.keyOf(i).equals(KEY.keyOf(items.get(1))))
            .findFirst()
            .orElseThrow();
    assertThat(stored.attributes().keySet()).noneMatch(n -> n.startsWith("stowage:ix:byDay"));
    // every item reads back exactly
    for (Item original : items) {
      assertThat(copy.get(KEY.keyOf(original))).contains(original);
    }
  }

  @Test
  void verificationFindsTargetIndexValuesThatDoNotMatch() {
    MemoryDriver source = MemoryDriver.create();
    writeNatively(source, 20);
    MemoryDriver target = MemoryDriver.create();
    Migrator m =
        Migrator.builder(NATIVE)
            .source(source, null, "")
            .target(target, null, "")
            .targetSpec(TARGET)
            .build();
    m.run();
    assertThat(m.verify().ok()).isTrue();
    // a copy whose index values are missing (as a plain stored-form copy would leave them) differs
    TableLayout raw = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    Item one =
        target.scan(raw, new DriverScan(100, null, true)).items().stream()
            .map(x -> x.item())
            .filter(x -> x.attributes().containsKey("stowage:ix:byStatus:p"))
            .findFirst()
            .orElseThrow();
    Map<String, AttributeValue> bare = new LinkedHashMap<>(one.attributes());
    bare.keySet().removeIf(n -> n.startsWith("stowage:ix:"));
    target.batchWrite(raw, List.of(new WriteOp.Put(KEY.keyOf(one), StoredItems.of(bare))));
    Verification v = m.verify();
    assertThat(v.ok()).isFalse();
    assertThat(v.different()).isEqualTo(1);
  }

  @Test
  void itemsTheTargetsIndexesCannotHoldAreMisfits() {
    MemoryDriver source = MemoryDriver.create();
    TableLayout raw = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    source.ensureTable(raw);
    Item wrong =
        Item.builder().put("shop", "s").put("no", 1).put("status", true).put("total", 1).build();
    Item right =
        Item.builder().put("shop", "s").put("no", 2).put("status", "open").put("total", 1).build();
    source.batchWrite(
        raw,
        List.of(
            new WriteOp.Put(KEY.keyOf(wrong), wrong), new WriteOp.Put(KEY.keyOf(right), right)));
    MemoryDriver target = MemoryDriver.create();
    Migrator m =
        Migrator.builder(NATIVE)
            .source(source, null, "")
            .target(target, null, "")
            .targetSpec(TARGET)
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(1);
    assertThat(r.misfits())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.key()).isEqualTo(Key.of("s", 1));
              assertThat(f.reason()).contains("'status'").contains("byStatus").contains("BOOLEAN");
            });
    Verification v = m.verify();
    assertThat(v.ok()).isFalse();
    assertThat(v.missing()).isEqualTo(1);
  }

  @Test
  void anAttributeTheTargetIndexesIsFoundInTheSourcesOverflowBlob() {
    // Azure's limits allow 252 attributes: the core moves some of these 300 into a blob.
    MemoryDriver source = MemoryDriver.builder().limits(MemoryLimits.azure()).build();
    MemoryBlobStore sourceBlobs = new MemoryBlobStore();
    Table t = Stowage.builder(source).blobStore(sourceBlobs).build().ensureTable(SOURCE);
    Item.Builder b = Item.builder().put("shop", "s").put("no", 1);
    for (int i = 0; i < 300; i++) {
      b.put(String.format("a%03d", i), "v" + i);
    }
    Item wide = b.build();
    t.put(wide);
    TableLayout raw = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    Item stored = source.scan(raw, new DriverScan(1, null, true)).items().get(0).item();
    String moved =
        wide.attributes().keySet().stream()
            .filter(n -> !stored.attributes().containsKey(n))
            .findFirst()
            .orElseThrow();
    TableSpec target =
        TableSpec.builder("orders", KEY).index("byMoved", List.of(moved), List.of()).build();

    MemoryDriver targetDriver = MemoryDriver.builder().limits(MemoryLimits.azure()).build();
    MemoryBlobStore targetBlobs = new MemoryBlobStore();
    Migrator m =
        Migrator.builder(SOURCE)
            .source(source, sourceBlobs, "")
            .target(targetDriver, targetBlobs, "")
            .targetSpec(target)
            .build();
    assertThat(m.run().misfits()).isEmpty();
    assertThat(m.verify().ok()).isTrue();
    Table copy = Stowage.builder(targetDriver).blobStore(targetBlobs).build().table(target);
    assertThat(
            copy.queryAll(
                    Query.index("byMoved")
                        .partition((KeyValue) wide.attributes().get(moved))
                        .build())
                .toList())
        .containsExactly(wide);
  }

  @Test
  void nativeIndexesGetNoSynthesizedValuesAndTheirValuesAreCheckedOnTheTarget() {
    // The source has a native index over total; the target keeps it and adds byStatus.
    IndexSpec byTotal =
        IndexSpec.nativeIndex("byTotal", "GSI_total", KeySchema.of("total", NUMBER));
    TableSpec source = TableSpec.builder("orders", KEY).index(byTotal).build();
    TableSpec target =
        TableSpec.builder("orders", KEY)
            .index(byTotal)
            .index("byStatus", List.of("status"), List.of("total", "no"))
            .build();
    MemoryDriver sourceDriver = MemoryDriver.create();
    List<Item> items = writeNatively(sourceDriver, 60);
    sourceDriver.ensureTable(
        new TableLayout(
            new TableRef("", "orders"),
            KEY,
            source.indexes().stream().map(IndexLayout::of).toList()));
    // one item whose total is no number: the target's native index cannot hold it
    TableLayout raw = new TableLayout(new TableRef("", "orders"), KEY, List.of());
    Item odd =
        Item.builder()
            .put("shop", "s9")
            .put("no", 999)
            .put("status", "open")
            .put("total", "n/a")
            .build();
    sourceDriver.batchWrite(raw, List.of(new WriteOp.Put(KEY.keyOf(odd), odd)));

    MemoryDriver targetDriver = MemoryDriver.create();
    Migrator m =
        Migrator.builder(source)
            .source(sourceDriver, null, "")
            .target(targetDriver, null, "")
            .targetSpec(target)
            .build();
    Migrator.Report r = m.run();
    assertThat(r.progress().itemsCopied()).isEqualTo(60);
    assertThat(r.misfits())
        .singleElement()
        .satisfies(f -> assertThat(f.key()).isEqualTo(Key.of("s9", 999)));
    Verification v = m.verify();
    assertThat(v.missing()).isEqualTo(1);
    assertThat(v.different()).isZero();

    Table copy = Stowage.builder(targetDriver).build().table(target);
    for (boolean descending : List.of(false, true)) {
      assertThat(query(copy, "open", descending)).isEqualTo(expected(items, "open", descending));
    }
    assertThat(
            copy.queryAll(Query.index("byTotal").partition(AttributeValue.of(3)).build())
                .map(KEY::keyOf)
                .toList())
        .isEqualTo(
            items.stream()
                .filter(i -> i.getNumber("total").intValue() == 3)
                .map(KEY::keyOf)
                .sorted()
                .toList());
    assertThat(
            targetDriver
                .scan(
                    new TableLayout(
                        new TableRef("", "orders"),
                        KEY,
                        target.indexes().stream().map(IndexLayout::of).toList()),
                    new DriverScan(100, null, true))
                .items())
        .allSatisfy(
            s ->
                assertThat(s.item().attributes().keySet())
                    .noneMatch(n -> n.startsWith("stowage:ix:byTotal")));
  }

  @Test
  void refusesTargetSpecsThatCannotHoldTheSourcesStoredForms() {
    MemoryDriver source = MemoryDriver.create();
    MemoryDriver target = MemoryDriver.create();
    TableSpec otherKey =
        TableSpec.builder("orders", KeySchema.of("shop", STRING, "no", STRING)).build();
    assertThatThrownBy(
            () ->
                Migrator.builder(SOURCE)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(otherKey)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("key schema")
        .hasMessageContaining("sort key 'no' is NUMBER vs STRING");
    TableSpec noSort = TableSpec.builder("orders", KeySchema.of("shop", STRING)).build();
    assertThatThrownBy(
            () ->
                Migrator.builder(SOURCE)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(noSort)
                    .build())
        .hasMessageContaining("the source has sort key 'no', the target none");
    TableSpec compressed = TableSpec.builder("orders", KEY).compressed("notes").build();
    assertThatThrownBy(
            () ->
                Migrator.builder(SOURCE)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(compressed)
                    .build())
        .hasMessageContaining("'notes' is plain in the source and compressed in the target");
    assertThatThrownBy(
            () ->
                Migrator.builder(SOURCE)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(TARGET)
                    .targetTable("orders2")
                    .build())
        .hasMessageContaining("either a target spec or a target table name");
  }

  @Test
  void adoptedSidesAreRecordedInTheCheckpointAndOneAdoptedTableIsNeverCopiedOntoItself()
      throws Exception {
    TableSpec adopted = TableSpec.builder("orders", KEY).adopt("Legacy.Orders").build();
    MemoryDriver source = MemoryDriver.create();
    writeNatively(source, 10);
    MemoryDriver target = MemoryDriver.create();
    Path checkpoint = dir.resolve("cp");
    Migrator.builder(adopted)
        .source(source, null, "")
        .target(target, null, "")
        .targetSpec(TARGET)
        .checkpoint(checkpoint)
        .build()
        .run();
    String header = Files.readAllLines(checkpoint).get(0);
    assertThat(header.split("\t", -1))
        .containsExactly(
            "stowage-migrate",
            "3",
            "memory",
            source.location(),
            "",
            "orders",
            "Legacy.Orders",
            "memory",
            target.location(),
            "",
            "orders",
            "");
    // the same checkpoint for another adopted source is refused, naming the difference
    TableSpec other = TableSpec.builder("orders", KEY).adopt("Other.Orders").build();
    assertThatThrownBy(
            () ->
                Migrator.builder(other)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(TARGET)
                    .checkpoint(checkpoint)
                    .build()
                    .run())
        .hasMessageContaining("the source's adopted table differs")
        .hasMessageContaining("(adopted 'Legacy.Orders')");
    // and a run without adoption too
    assertThatThrownBy(
            () ->
                Migrator.builder(NATIVE)
                    .source(source, null, "")
                    .target(target, null, "")
                    .targetSpec(TARGET)
                    .checkpoint(checkpoint)
                    .build()
                    .run())
        .hasMessageContaining("the source's adopted table differs");
    // by default an adopted source is copied into a table Stowage lays out, under its logical name
    Migrator plain =
        Migrator.builder(adopted).source(source, null, "").target(target, null, "p").build();
    assertThat(plain.sourceLayout().adoptedName()).isEqualTo("Legacy.Orders");
    assertThat(plain.targetLayout().adopted()).isFalse();
    assertThat(plain.targetLayout().ref()).isEqualTo(new TableRef("p", "orders"));
    // one adopted table of one store is one table, whatever the namespace or logical name
    TableSpec sameAdopted = TableSpec.builder("orders2", KEY).adopt("Legacy.Orders").build();
    assertThatThrownBy(
            () ->
                Migrator.builder(adopted)
                    .source(source, null, "")
                    .target(source, null, "other")
                    .targetSpec(sameAdopted)
                    .build())
        .hasMessageContaining("the same adopted table 'Legacy.Orders'");
  }
}
