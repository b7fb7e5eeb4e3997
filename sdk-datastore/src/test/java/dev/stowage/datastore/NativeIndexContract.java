package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import dev.stowage.InvalidRequestException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.datastore.internal.KeyNames;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.SortCondition;
import dev.stowage.query.Update;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Native indexes on Datastore: entities written with the plain client (indexed properties, as
 * Datastore writes them by default) with integers and doubles mixed in one property, strings whose
 * UTF-8 and UTF-16 orders differ, blobs with 0x00 and 0xFF, and values of other types in the same
 * properties (strings, booleans, timestamps, NaN, doubles beyond Stowage's number range), queried
 * through Stowage in both directions with conditions and cursors. Values of another type than the
 * index declares are in no Stowage index; a value the other application excluded from indexes is
 * not found until Stowage rewrites the entity, which indexes it. Run on the Firestore emulator and
 * on the legacy emulator that requires every composite index to be in the generated index.yaml.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NativeIndexContract {
  static final KeySchema KEYS =
      KeySchema.of("pk", AttributeType.STRING, "sk", AttributeType.NUMBER);

  static TableSpec spec() {
    return TableSpec.builder("nativeorders", KEYS)
        .nativeIndex(
            "byStatus",
            "status-created",
            KeySchema.of("status", AttributeType.STRING, "created", AttributeType.NUMBER))
        .nativeIndex("byTag", "tag", KeySchema.of("tag", AttributeType.STRING))
        .nativeIndex(
            "byLevel",
            "level-name",
            KeySchema.of("level", AttributeType.NUMBER, "name", AttributeType.STRING))
        .nativeIndex(
            "byCode",
            "region-code",
            KeySchema.of("region", AttributeType.STRING, "code", AttributeType.BINARY))
        .build();
  }

  static TableLayout layout(String namespace) {
    TableSpec spec = spec();
    return new TableLayout(
        new TableRef(namespace, spec.name()),
        spec.keySchema(),
        spec.indexes().stream().map(IndexLayout::of).toList());
  }

  abstract Datastore client();

  abstract String namespace();

  private Stowage stowage;
  private Table table;
  private final List<Item> all = new ArrayList<>();

  private static final List<Value<?>> CREATED =
      List.of(
          LongValue.of(10),
          DoubleValue.of(2.5),
          LongValue.of(-3),
          DoubleValue.of(10.0),
          DoubleValue.of(-0.25),
          LongValue.of(5),
          DoubleValue.of(1e20),
          LongValue.of(Long.MAX_VALUE),
          DoubleValue.of(19.5),
          LongValue.of(0),
          // Values of other types: in no Stowage index over a NUMBER.
          StringValue.of("5"),
          BooleanValue.of(true),
          DoubleValue.of(Double.NaN),
          DoubleValue.of(1e300),
          TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(1_700_000_000, 0)));

  private static final List<String> NAMES =
      List.of("alpha", "alpine", "beta", "z\uFFFF", "z\uD83D\uDE00", "al");

  private com.google.cloud.datastore.Key nativeKey(Key key) {
    return client()
        .newKeyFactory()
        .setNamespace(namespace())
        .setKind(spec().name())
        .newKey(KeyNames.name(key));
  }

  @BeforeAll
  void write() {
    stowage = Stowage.builder(DatastoreDriver.of(client())).namespace(namespace()).build();
    stowage.dropTable(spec().name());
    table = stowage.ensureTable(spec());
    for (int i = 0; i < 45; i++) {
      Key key = Key.of("p" + (i % 4), i);
      if (i % 3 == 2) {
        // Written through Stowage.
        Item.Builder b =
            Item.builder()
                .put("pk", "p" + (i % 4))
                .put("sk", i)
                .put("status", i % 2 == 0 ? "open" : "closed")
                .put("created", new BigDecimal(i % 5 == 0 ? "7.25" : String.valueOf(i - 20)))
                .put("level", i % 2 == 0 ? 1 : 2)
                .put("name", NAMES.get(i % NAMES.size()))
                .put("region", "eu")
                .put("code", Bytes.of(new byte[] {(byte) (i * 37), (byte) i}))
                .put("tag", "t" + (i % 2));
        table.put(b.build());
        continue;
      }
      Entity.Builder e =
          Entity.newBuilder(nativeKey(key))
              .set("pk", "p" + (i % 4))
              .set("sk", i)
              .set("status", i % 2 == 0 ? "open" : "closed")
              .set("created", CREATED.get(i % CREATED.size()))
              .set("level", i % 2 == 0 ? LongValue.of(1) : DoubleValue.of(i % 4 == 1 ? 1.0 : 2.5))
              .set("region", i % 5 == 0 ? "us" : "eu")
              .set(
                  "code",
                  BlobValue.of(
                      Blob.copyFrom(
                          new byte[] {
                            (byte) (i % 3 == 0 ? 0xFF : i % 3 == 1 ? 0x00 : 0x7F), (byte) i
                          })))
              .set("note", StringValue.newBuilder("note " + i).setExcludeFromIndexes(true).build());
      if (i % 7 != 3) {
        e.set("name", NAMES.get(i % NAMES.size()));
      }
      if (i % 4 != 3) {
        e.set("tag", "t" + (i % 2));
      }
      client().put(e.build());
    }
    for (int i = 0; i < 45; i++) {
      all.add(table.get(Key.of("p" + (i % 4), i), ReadOptions.CONSISTENT).orElseThrow());
    }
  }

  @AfterAll
  void dropAndClose() {
    try {
      stowage.dropTable(spec().name());
      stowage.close();
    } finally {
      stop();
    }
  }

  /** Stops what the subclass started, after the table is dropped. */
  void stop() {}

  private static boolean typed(Item i, String attribute, AttributeType type) {
    return i.find(attribute).map(v -> v.type() == type).orElse(false);
  }

  private static Comparator<Item> by(String attribute) {
    return Comparator.comparing((Item i) -> (KeyValue) i.get(attribute), KeyValue::compare)
        .thenComparing(KEYS::keyOf);
  }

  private List<Item> expected(
      String partitionAttribute,
      AttributeValue partition,
      String sortAttribute,
      AttributeType sortType,
      Predicate<Item> condition) {
    return all.stream()
        .filter(i -> partition.equals(i.find(partitionAttribute).orElse(null)))
        .filter(i -> sortAttribute == null || typed(i, sortAttribute, sortType))
        .filter(condition)
        .sorted(sortAttribute == null ? Comparator.comparing(KEYS::keyOf) : by(sortAttribute))
        .toList();
  }

  private void check(Query.Builder q, List<Item> ascending) {
    assertThat(table.queryAll(q.build()).toList())
        .as("%s", q.build())
        .containsExactlyElementsOf(ascending);
    List<Item> reversed = new ArrayList<>(ascending);
    Collections.reverse(reversed);
    assertThat(table.queryAll(q.build().toBuilder().descending().build()).toList())
        .as("%s descending", q.build())
        .containsExactlyElementsOf(reversed);
  }

  private static Predicate<Item> created(String lo, boolean loIn, String hi, boolean hiIn) {
    return i -> {
      BigDecimal c = i.getNumber("created");
      if (lo != null) {
        int x = c.compareTo(new BigDecimal(lo));
        if (x < 0 || (x == 0 && !loIn)) {
          return false;
        }
      }
      if (hi != null) {
        int x = c.compareTo(new BigDecimal(hi));
        return x < 0 || (x == 0 && hiIn);
      }
      return true;
    };
  }

  @Test
  void numbersOrderNumericallyAcrossIntegersAndDoubles() {
    AttributeValue open = AttributeValue.of("open");
    List<Item> every = expected("status", open, "created", AttributeType.NUMBER, i -> true);
    assertThat(every).as("integers and doubles both present").hasSizeGreaterThan(10);
    check(Query.index("byStatus").partition((KeyValue) open).limit(3), every);
    Object[][] conditions = {
      {SortCondition.gt(AttributeValue.of(5)), created("5", false, null, false)},
      {
        SortCondition.ge(AttributeValue.of(new BigDecimal("2.5"))),
        created("2.5", true, null, false)
      },
      {
        SortCondition.le(AttributeValue.of(new BigDecimal("2.5"))),
        created(null, false, "2.5", true)
      },
      {
        SortCondition.lt(AttributeValue.of(new BigDecimal("0.1"))),
        created(null, false, "0.1", false)
      },
      {SortCondition.eq(AttributeValue.of(10)), created("10", true, "10", true)},
      {
        SortCondition.between(AttributeValue.of(-1), AttributeValue.of(new BigDecimal("19.5"))),
        created("-1", true, "19.5", true)
      },
      {
        SortCondition.gt(AttributeValue.of(new BigDecimal("1E+19"))),
        created("1E+19", false, null, false)
      },
    };
    for (Object[] c : conditions) {
      @SuppressWarnings("unchecked")
      Predicate<Item> p = (Predicate<Item>) c[1];
      check(
          Query.index("byStatus").partition((KeyValue) open).sort((SortCondition) c[0]).limit(2),
          expected("status", open, "created", AttributeType.NUMBER, p));
    }
  }

  @Test
  void numberPartitionsMatchIntegersAndDoublesStringsOrderByUtf8() {
    AttributeValue one = AttributeValue.of(1);
    List<Item> ones = expected("level", one, "name", AttributeType.STRING, i -> true);
    assertThat(ones.stream().map(i -> i.getString("pk")).distinct()).hasSizeGreaterThan(1);
    check(Query.index("byLevel").partition((KeyValue) one).limit(4), ones);
    check(
        Query.index("byLevel").partition((KeyValue) one).sort(SortCondition.beginsWith("al")),
        expected(
            "level", one, "name", AttributeType.STRING, i -> i.getString("name").startsWith("al")));
    check(
        Query.index("byLevel")
            .partition(AttributeValue.of(new BigDecimal("2.5")))
            .sort(SortCondition.gt(AttributeValue.of("z"))),
        expected(
            "level",
            AttributeValue.of(new BigDecimal("2.5")),
            "name",
            AttributeType.STRING,
            i -> dev.stowage.item.Utf8Order.compare(i.getString("name"), "z") > 0));
  }

  @Test
  void blobsOrderUnsignedAndAnIndexWithoutSortOrdersByKey() {
    AttributeValue eu = AttributeValue.of("eu");
    check(
        Query.index("byCode").partition((KeyValue) eu).limit(5),
        expected("region", eu, "code", AttributeType.BINARY, i -> true));
    Bytes mid = Bytes.of(new byte[] {(byte) 0x7F});
    check(
        Query.index("byCode")
            .partition((KeyValue) eu)
            .sort(SortCondition.ge(AttributeValue.of(mid))),
        expected(
            "region",
            eu,
            "code",
            AttributeType.BINARY,
            i -> i.getBinary("code").compareTo(mid) >= 0));
    for (String tag : List.of("t0", "t1")) {
      AttributeValue t = AttributeValue.of(tag);
      check(
          Query.index("byTag").partition((KeyValue) t).limit(3),
          expected("tag", t, null, null, i -> true));
    }
  }

  @Test
  void cursorsPageBothWays() {
    AttributeValue open = AttributeValue.of("open");
    List<Item> every = expected("status", open, "created", AttributeType.NUMBER, i -> true);
    for (boolean descending : new boolean[] {false, true}) {
      List<Item> want = new ArrayList<>(every);
      if (descending) {
        Collections.reverse(want);
      }
      Page p =
          table.query(
              Query.index("byStatus")
                  .partition((KeyValue) open)
                  .descending(descending)
                  .limit(2)
                  .build());
      List<Item> onward = new ArrayList<>(p.items());
      while (descending ? p.hasBefore() : p.hasAfter()) {
        p = table.page((descending ? p.before() : p.after()).orElseThrow());
        onward.addAll(p.items());
      }
      assertThat(onward).containsExactlyElementsOf(want);
      List<Item> back = new ArrayList<>(p.items());
      while (descending ? p.hasAfter() : p.hasBefore()) {
        p = table.page((descending ? p.after() : p.before()).orElseThrow());
        back.addAll(0, p.items());
      }
      assertThat(back).containsExactlyElementsOf(want);
    }
  }

  @Test
  void stowageWritesNativeIndexAttributesIndexedAndKeepsThemIndexed() {
    Key key = Key.of("p0", 0); // created 10, an integer written natively
    Entity before = client().get(nativeKey(key));
    assertThat(before.getValue("created").getType())
        .isEqualTo(com.google.cloud.datastore.ValueType.LONG);
    // An entity whose created value the other application excluded from indexes is not found.
    Key hidden = Key.of("zz", 1);
    client()
        .put(
            Entity.newBuilder(nativeKey(hidden))
                .set("pk", "zz")
                .set("sk", 1)
                .set("status", "hidden")
                .set("created", LongValue.newBuilder(3).setExcludeFromIndexes(true).build())
                .build());
    Query hiddenQuery = Query.index("byStatus").partition(AttributeValue.of("hidden")).build();
    assertThat(table.queryAll(hiddenQuery).toList()).isEmpty();
    // Rewritten by Stowage (an update of another attribute), it is indexed and found.
    Item updated = table.update(hidden, Update.builder().set("note", "seen").build());
    assertThat(client().get(nativeKey(hidden)).getValue("created").excludeFromIndexes()).isFalse();
    assertThat(table.queryAll(hiddenQuery).toList()).containsExactly(updated);

    // A double stays a double when Stowage writes a number it holds; a new value an integer.
    Key dbl = Key.of("p1", 1); // created 2.5 (double), written natively
    table.update(dbl, Update.builder().set("created", 3).build());
    Value<?> v = client().get(nativeKey(dbl)).getValue("created");
    assertThat(v.getType()).isEqualTo(com.google.cloud.datastore.ValueType.DOUBLE);
    assertThat(v.excludeFromIndexes()).isFalse();
    Entity written = client().get(nativeKey(Key.of("p2", 2)));
    for (String p : List.of("status", "created", "level", "name", "region", "code", "tag")) {
      assertThat(written.getValue(p).excludeFromIndexes()).as(p).isFalse();
    }
    assertThat(written.getValue("created").getType())
        .isEqualTo(com.google.cloud.datastore.ValueType.LONG);
    table.update(
        dbl, Update.builder().set("created", AttributeValue.of(new BigDecimal("2.5"))).build());
    table.delete(hidden);

    // A number Datastore cannot index as an integer or a double is refused before writing.
    Item unindexable =
        Item.builder()
            .put("pk", "zz")
            .put("sk", 2)
            .put("status", "x")
            .put("created", new BigDecimal("0.1000000000000000000000000001"))
            .build();
    assertThatThrownBy(() -> table.put(unindexable))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("created")
        .hasMessageContaining("byStatus")
        .hasMessageContaining("64-bit integers or doubles");
    assertThat(table.get(Key.of("zz", 2), ReadOptions.CONSISTENT)).isEmpty();
  }
}
