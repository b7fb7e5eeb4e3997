package dev.stowage;

import static dev.stowage.item.AttributeType.BINARY;
import static dev.stowage.item.AttributeType.NUMBER;
import static dev.stowage.item.AttributeType.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Query;
import dev.stowage.spi.Capability;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Native indexes in the spec and the core: validation, what the core writes (nothing of its own),
 * the layout drivers see, cursors of redefined indexes, consistency per index, and drivers without
 * the capability. Queries in every order are the conformance kit's (NativeIndexContracts).
 */
class NativeIndexTest {
  private static final KeySchema KEYS = KeySchema.of("pk", STRING, "sk", NUMBER);
  private static final KeySchema STATUS_CREATED = KeySchema.of("status", STRING, "created", NUMBER);

  private static TableSpec spec(String nativeName) {
    return TableSpec.builder("orders", KEYS)
        .nativeIndex("byStatus", nativeName, STATUS_CREATED)
        .index("byOwner", List.of("owner"), List.of())
        .build();
  }

  @Test
  void aNativeIndexIsOnePartitionAttributeAndAtMostOneSortAttributeWithTypes() {
    IndexSpec ix = IndexSpec.nativeIndex("byStatus", "GSI1", STATUS_CREATED);
    assertThat(ix.isNative()).isTrue();
    assertThat(ix.partitionAttributes()).containsExactly("status");
    assertThat(ix.sortAttributes()).containsExactly("created");
    assertThat(ix.projection()).isEqualTo(IndexSpec.Projection.ALL);
    assertThat(ix.nativeIndex()).isEqualTo(new IndexSpec.Native("GSI1", STATUS_CREATED));
    assertThat(
            IndexSpec.nativeIndex("byTag", "tag-index", KeySchema.of("tag", STRING))
                .sortAttributes())
        .isEmpty();
    assertThat(IndexSpec.of("x", List.of("a"), List.of()).isNative()).isFalse();
    assertThat(new IndexSpec("x", List.of("a"), List.of(), null).nativeIndex()).isNull();

    assertThatThrownBy(() -> IndexSpec.nativeIndex("byStatus", "", STATUS_CREATED))
        .hasMessageContaining("native index name");
    assertThatThrownBy(() -> IndexSpec.nativeIndex("byStatus", "a\nb", STATUS_CREATED))
        .hasMessageContaining("control characters");
    assertThatThrownBy(() -> IndexSpec.nativeIndex("byStatus", "x".repeat(256), STATUS_CREATED))
        .hasMessageContaining("255");
    assertThatThrownBy(() -> IndexSpec.nativeIndex("by:Status", "GSI1", STATUS_CREATED))
        .hasMessageContaining("index name");
    assertThatThrownBy(
            () ->
                new IndexSpec(
                    "byStatus",
                    List.of("status", "other"),
                    List.of("created"),
                    IndexSpec.Projection.ALL,
                    new IndexSpec.Native("GSI1", STATUS_CREATED)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition attributes must be [status]");
  }

  @Test
  void theSpecRefusesEncodedAttributesAndDisagreeingTypes() {
    assertThatThrownBy(
            () ->
                TableSpec.builder("orders", KEYS)
                    .encrypted("status")
                    .nativeIndex("byStatus", "GSI1", STATUS_CREATED)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("encrypted attribute 'status'");
    assertThatThrownBy(
            () ->
                TableSpec.builder("orders", KEYS)
                    .compressed("created")
                    .nativeIndex("byStatus", "GSI1", STATUS_CREATED)
                    .build())
        .hasMessageContaining("compressed attribute 'created'");
    // An LSI shares the table's partition key, with the key's type.
    TableSpec lsi =
        TableSpec.builder("orders", KEYS)
            .nativeIndex("byCreated", "LSI1", KeySchema.of("pk", STRING, "created", NUMBER))
            .build();
    assertThat(lsi.index("byCreated")).isPresent();
    assertThatThrownBy(
            () ->
                TableSpec.builder("orders", KEYS)
                    .nativeIndex("byCreated", "LSI1", KeySchema.of("pk", NUMBER, "created", NUMBER))
                    .build())
        .hasMessageContaining("declares 'pk' as NUMBER, but it is a STRING key attribute");
    assertThatThrownBy(
            () ->
                TableSpec.builder("orders", KEYS)
                    .nativeIndex("byStatus", "GSI1", STATUS_CREATED)
                    .nativeIndex("byCreated", "GSI2", KeySchema.of("created", STRING))
                    .build())
        .hasMessageContaining("attribute 'created'")
        .hasMessageContaining(
            "NUMBER in native index 'byStatus' but STRING in native index 'byCreated'");
  }

  @Test
  void driversSeeThePlainAttributesAndTheCoreWritesNothingForThem() {
    MemoryDriver driver = MemoryDriver.create();
    try (Stowage s = Stowage.builder(driver).build()) {
      Table t = s.ensureTable(spec("GSI1"));
      Item item =
          Item.builder()
              .put("pk", "a")
              .put("sk", 1)
              .put("status", "open")
              .put("created", 5)
              .put("owner", "ann")
              .build();
      t.put(item);
      TableLayout layout = new TableLayout(new TableRef("", "orders"), KEYS, List.of());
      Item stored = driver.get(layout, Key.of("a", 1), true).orElseThrow().item();
      assertThat(stored.names())
          .as("the maintained index's attributes, not the native one's")
          .contains("stowage:ix:byOwner:p", "stowage:ix:byOwner:s")
          .noneMatch(n -> n.startsWith("stowage:ix:byStatus"));
      IndexLayout native0 = IndexLayout.of(spec("GSI1").index("byStatus").orElseThrow());
      assertThat(native0)
          .isEqualTo(
              new IndexLayout(
                  "byStatus",
                  "status",
                  "created",
                  IndexSpec.Projection.ALL,
                  "GSI1",
                  STRING,
                  NUMBER));
      assertThat(native0.isNative()).isTrue();
      assertThat(IndexLayout.of(spec("GSI1").index("byOwner").orElseThrow()).partitionType())
          .isEqualTo(BINARY);
      assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("open")).build()))
          .containsExactly(item);
    }
  }

  @Test
  void aCursorOfARedefinedNativeIndexIsRefused() {
    MemoryDriver driver = MemoryDriver.create();
    try (Stowage s = Stowage.builder(driver).build()) {
      Table t = s.ensureTable(spec("GSI1"));
      for (int i = 0; i < 3; i++) {
        t.put(
            Item.builder()
                .put("pk", "a")
                .put("sk", i)
                .put("status", "open")
                .put("created", i)
                .build());
      }
      String cursor =
          t.query(Query.index("byStatus").partition(AttributeValue.of("open")).limit(1).build())
              .after()
              .orElseThrow();
      assertThat(t.page(cursor).items()).hasSize(1);
      // The index now maps to another backend index: positions of the old one mean nothing.
      Table redefined = s.ensureTable(spec("GSI2"));
      InvalidCursorException e =
          catchThrowableOfType(InvalidCursorException.class, () -> redefined.page(cursor));
      assertThat(e.reason()).isEqualTo(InvalidCursorException.Reason.INDEX_CHANGED);
    }
  }

  @Test
  void aDriverUnawareOfNativeIndexesIsRefusedByTheCore() {
    // A driver written before native indexes existed neither declares nor refuses them.
    MemoryDriver inner = MemoryDriver.create();
    dev.stowage.spi.StorageDriver unaware =
        new dev.stowage.spi.ForwardingDriver(inner) {
          @Override
          public java.util.Set<Capability> capabilities() {
            var c = java.util.EnumSet.copyOf(inner.capabilities());
            c.remove(Capability.NATIVE_INDEXES);
            return c;
          }
        };
    try (Stowage s = Stowage.builder(unaware).build()) {
      UnsupportedCapabilityException e =
          catchThrowableOfType(
              UnsupportedCapabilityException.class, () -> s.ensureTable(spec("GSI1")));
      assertThat(e.getMessage())
          .contains("the memory driver cannot use the backend's own secondary indexes")
          .contains("byStatus")
          .contains("IndexSpec.of");
      assertThatThrownBy(
              () -> inner.openTable(new TableLayout(new TableRef("", "orders"), KEYS, List.of())))
          .as("nothing was created")
          .isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void deleteJobsRunOverNativeIndexes() {
    try (Stowage s = Stowage.builder(MemoryDriver.create()).build()) {
      Table t = s.ensureTable(spec("GSI1"));
      for (int i = 0; i < 25; i++) {
        t.put(
            Item.builder()
                .put("pk", "p" + i % 3)
                .put("sk", i)
                .put("status", i % 2 == 0 ? "done" : "open")
                .put("created", i)
                .build());
      }
      Query done =
          Query.index("byStatus")
              .partition(AttributeValue.of("done"))
              .sort(dev.stowage.query.SortCondition.lt(AttributeValue.of(20)))
              .build();
      DeleteJob.Progress p = t.deleteWhere(done, new DeleteJob.Options(0, 4, false, null)).run();
      assertThat(p.deleted()).isEqualTo(10);
      assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("done")).build()))
          .extracting(i -> i.getNumber("created").intValue())
          .containsExactly(20, 22, 24);
      assertThat(t.queryAll(Query.index("byStatus").partition(AttributeValue.of("open")).build()))
          .hasSize(12);
    }
  }

  @Test
  void consistentQueriesAreAllowedPerIndexWhereTheDriverSaysSo() {
    MemoryDriver plain =
        MemoryDriver.builder().without(Capability.CONSISTENT_INDEX_QUERIES).build();
    try (Stowage s = Stowage.builder(plain).build()) {
      Table t = s.ensureTable(spec("GSI1"));
      Query q =
          Query.index("byStatus").partition(AttributeValue.of("open")).consistentRead(true).build();
      UnsupportedCapabilityException e =
          catchThrowableOfType(UnsupportedCapabilityException.class, () -> t.query(q));
      assertThat(e.capability()).isEqualTo("CONSISTENT_INDEX_QUERIES");
      assertThat(e.getMessage()).contains("byStatus");
    }
  }

  @Test
  void aDriverWithoutNativeIndexesRefusesTheTableBeforeAnythingIsCreated() {
    MemoryDriver driver = MemoryDriver.builder().without(Capability.NATIVE_INDEXES).build();
    try (Stowage s = Stowage.builder(driver).build()) {
      UnsupportedCapabilityException e =
          catchThrowableOfType(
              UnsupportedCapabilityException.class, () -> s.ensureTable(spec("GSI1")));
      assertThat(e.capability()).isEqualTo("NATIVE_INDEXES");
      assertThat(e.getMessage())
          .as("the driver's own reason")
          .contains("built without native indexes")
          .contains("byStatus")
          .contains("GSI1");
      assertThatThrownBy(() -> s.table(spec("GSI1")))
          .isInstanceOf(UnsupportedCapabilityException.class);
      TableLayout layout =
          new TableLayout(
              new TableRef("", "orders"),
              KEYS,
              List.of(IndexLayout.of(spec("GSI1").index("byStatus").orElseThrow())));
      assertThatThrownBy(() -> driver.ensureTable(layout))
          .as("the driver itself refuses too")
          .isInstanceOf(UnsupportedCapabilityException.class)
          .hasMessageContaining("NATIVE_INDEXES");
      assertThatThrownBy(
              () -> driver.openTable(new TableLayout(new TableRef("", "orders"), KEYS, List.of())))
          .as("nothing was created")
          .isInstanceOf(NotFoundException.class);
    }
  }
}
