package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.Stowage;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.Update;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.typed.Attribute;
import dev.stowage.typed.Compressed;
import dev.stowage.typed.Encrypted;
import dev.stowage.typed.Indexed;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;
import dev.stowage.typed.TypedPage;
import dev.stowage.typed.TypedSchema;
import dev.stowage.typed.TypedTable;
import dev.stowage.typed.Version;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The item, index, paging, condition and codec contracts run through the typed API: an application
 * record with keys, a multi-column index, compressed and encrypted fields and a version, stored and
 * read on the backend under test.
 */
abstract class TypedContracts extends Contract {
  /** A status of an order. */
  enum Status {
    OPEN,
    SHIPPED
  }

  /** A line of an order, stored as a map inside a list. */
  record Line(String sku, int quantity, BigDecimal price) {}

  /** A card, stored encrypted as a whole map. */
  record Card(String number, LocalDate expires) {}

  /** The order every typed contract stores. */
  @StowageTable("typedorders")
  record Order(
      @PartitionKey String tenant,
      @SortKey Instant placedAt,
      @Indexed(name = "byStatus") Status status,
      @Indexed(name = "byStatus", sort = true) LocalDate due,
      @Indexed(name = "byStatus", sort = true, position = 1) UUID ref,
      @Compressed String notes,
      @Encrypted Card card,
      @Version long version,
      List<Line> lines,
      Set<String> tags,
      Optional<Duration> eta,
      byte[] signature) {}

  private static final Instant T0 = Instant.parse("2026-03-01T08:00:00.123456789Z");
  private static final String CARD = "4111-2222-3333-4444";

  static Order order(String tenant, int i, Status status) {
    return new Order(
        tenant,
        T0.plusSeconds(i),
        status,
        LocalDate.of(2026, 3, 1 + i % 20),
        new UUID(0, i),
        "fragile, handle with care; ".repeat(40) + i,
        new Card(CARD, LocalDate.of(2030, 1, 31)),
        0,
        List.of(new Line("sku-" + i, i + 1, new BigDecimal("19.99"))),
        i % 2 == 0 ? Set.of("gift", "express") : Set.of(),
        i % 3 == 0 ? Optional.of(Duration.ofMinutes(90).plusNanos(i)) : Optional.empty(),
        new byte[] {0, (byte) i, (byte) 0xff});
  }

  private String namespace;
  private Stowage typedStore;
  private TypedTable<Order> orders;

  private TypedTable<Order> orders() {
    if (orders == null) {
      namespace = kit().freshNamespace();
      typedStore =
          kit().storeBuilder(namespace).codecs(CodecContracts.codecsWithFreshKey()).build();
      table(typedStore, TypedSchema.of(Order.class).spec());
      orders = typedStore.table(Order.class);
    }
    return orders;
  }

  private static void assertSameOrder(Order got, Order want) {
    assertThat(got).usingRecursiveComparison().ignoringFields("signature").isEqualTo(want);
    assertThat(got.signature()).containsExactly(want.signature());
  }

  private static Order withVersion(Order o, long v) {
    return new Order(
        o.tenant(),
        o.placedAt(),
        o.status(),
        o.due(),
        o.ref(),
        o.notes(),
        o.card(),
        v,
        o.lines(),
        o.tags(),
        o.eta(),
        o.signature());
  }

  @Test
  void recordsRoundTripThroughPutGetBatchAndQuery() {
    TypedTable<Order> t = orders();
    List<Order> stored = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Order o = order("rt", i, Status.OPEN);
      Order s = t.put(o);
      assertSameOrder(s, withVersion(o, 1));
      assertSameOrder(t.get(t.keyOf(o), ReadOptions.CONSISTENT).orElseThrow(), s);
      stored.add(s);
    }
    List<Order> queried = t.queryAll(q -> q.partition("rt").limit(4).consistentRead(true)).toList();
    assertThat(queried).hasSize(6);
    for (int i = 0; i < 6; i++) {
      assertSameOrder(queried.get(i), stored.get(i));
    }
    List<Order> batch = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      batch.add(order("batch", i, Status.SHIPPED));
    }
    t.batchPut(batch);
    Map<Key, Order> got =
        t.batchGet(
            batch.stream().map(t::keyOf).collect(Collectors.toList()), ReadOptions.CONSISTENT);
    assertThat(got).hasSize(30);
    for (Order o : batch) {
      assertSameOrder(got.get(t.keyOf(o)), o);
    }
  }

  @Test
  void theVersionFieldLocksOptimistically() {
    TypedTable<Order> t = orders();
    Order v1 = t.put(order("v", 1, Status.OPEN));
    Order v2 = t.put(withVersion(order("v", 1, Status.SHIPPED), v1.version()));
    assertThat(v2.version()).isEqualTo(2);
    assertThatThrownBy(() -> t.put(v1)).isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> t.put(order("v", 1, Status.OPEN)))
        .isInstanceOf(ConditionFailedException.class);
    Order v3 = t.update(t.keyOf(v2), t.update().set("status", Status.OPEN).build());
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.status()).isEqualTo(Status.OPEN);
    assertThatThrownBy(
            () -> t.put(order("v", 1, Status.OPEN), t.field("status").eq(Status.SHIPPED)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> t.delete(v2)).isInstanceOf(ConditionFailedException.class);
    assertThat(t.delete(v3)).isTrue();
    assertThat(t.get(t.keyOf(v3), ReadOptions.CONSISTENT)).isEmpty();
  }

  @Test
  void typedPagesWalkBothWaysWithTheSameCursors() {
    TypedTable<Order> t = orders();
    List<Order> all = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      all.add(order("pg", i, Status.OPEN));
    }
    t.batchPut(all);
    List<Instant> forward = new ArrayList<>();
    TypedPage<Order> page = t.query(q -> q.partition("pg").limit(7).consistentRead(true));
    while (true) {
      page.items().forEach(o -> forward.add(o.placedAt()));
      if (!page.hasAfter()) {
        break;
      }
      page = t.page(page.after().orElseThrow());
    }
    assertThat(forward).isEqualTo(all.stream().map(Order::placedAt).toList());
    List<Instant> backward = new ArrayList<>();
    while (true) {
      List<Instant> items = new ArrayList<>(page.items().stream().map(Order::placedAt).toList());
      Collections.reverse(items);
      backward.addAll(items);
      if (!page.hasBefore()) {
        break;
      }
      page = t.page(page.before().orElseThrow());
    }
    Collections.reverse(backward);
    assertThat(backward).isEqualTo(forward);
    List<Instant> descending =
        t.queryAll(q -> q.partition("pg").descending().limit(5).consistentRead(true))
            .map(Order::placedAt)
            .toList();
    List<Instant> expected = new ArrayList<>(forward);
    Collections.reverse(expected);
    assertThat(descending).isEqualTo(expected);
    assertThat(
            t.queryAll(
                    q ->
                        q.partition("pg")
                            .sortBetween(T0.plusSeconds(3), T0.plusSeconds(9))
                            .consistentRead(true))
                .count())
        .isEqualTo(7);
  }

  @Test
  void aMultiColumnIndexAnswersTypedQueries() {
    TypedTable<Order> t = orders();
    List<Order> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      all.add(order("ix", i, i % 2 == 0 ? Status.OPEN : Status.SHIPPED));
    }
    t.batchPut(all);
    List<Order> open =
        t.queryAll(q -> q.index("byStatus").partition(Status.OPEN).limit(5)).toList();
    assertThat(open).hasSize(6);
    assertThat(open)
        .extracting(Order::due)
        .isSortedAccordingTo(LocalDate::compareTo)
        .allMatch(d -> d.getMonthValue() == 3);
    List<Order> day =
        t.queryAll(
                q -> q.index("byStatus").partition(Status.SHIPPED).sortEq(LocalDate.of(2026, 3, 4)))
            .toList();
    assertThat(day).hasSize(1);
    assertThat(day.get(0).ref()).isEqualTo(new UUID(0, 3));
    List<Order> upTo =
        t.queryAll(
                q ->
                    q.index("byStatus")
                        .partition(Status.OPEN)
                        .sortLe(LocalDate.of(2026, 3, 5), new UUID(0, 4))
                        .descending())
            .toList();
    assertThat(upTo)
        .extracting(Order::ref)
        .containsExactly(new UUID(0, 4), new UUID(0, 2), new UUID(0, 0));
  }

  @Test
  void compressedAndEncryptedFieldsAreEncodedOnTheBackend() {
    TypedTable<Order> t = orders();
    Order o = t.put(order("codec", 1, Status.OPEN));
    var spec = t.table().spec();
    TableLayout layout =
        new TableLayout(
            new TableRef(namespace, spec.name()),
            spec.keySchema(),
            spec.indexes().stream().map(IndexLayout::of).toList());
    Item raw = driver().get(layout, t.keyOf(o), true).orElseThrow().item();
    assertThat(raw.get("card").type()).isEqualTo(AttributeType.BINARY);
    assertThat(raw.get("notes").type()).isEqualTo(AttributeType.BINARY);
    assertThat(raw.getBinary("notes").size()).isLessThan(o.notes().length() / 4);
    assertThat(flatten(raw.attributes().values())).doesNotContain(CARD);
    assertSameOrder(t.get(t.keyOf(o), ReadOptions.CONSISTENT).orElseThrow(), o);
  }

  /** Values of every form, written through the untyped API; no typed class here maps them. */
  static Map<String, AttributeValue> foreign() {
    Map<String, AttributeValue> m = new LinkedHashMap<>();
    m.put("audit", AttributeValue.of("written by another service"));
    m.put("amount", AttributeValue.of(new BigDecimal("-12345678901234567890.00012")));
    m.put("raw", AttributeValue.of(new byte[] {0, 1, (byte) 0xfe}));
    m.put("flag", AttributeValue.of(false));
    m.put("nothing", AttributeValue.nullValue());
    m.put("names", AttributeValue.stringSet("x", "y"));
    m.put("scores", AttributeValue.numberSet(List.of(BigDecimal.ONE, new BigDecimal("2.5"))));
    m.put(
        "nested",
        AttributeValue.map(
            Map.of(
                "list",
                AttributeValue.list(AttributeValue.of(1), AttributeValue.nullValue()),
                "deep",
                AttributeValue.map(Map.of("b", AttributeValue.of(new byte[] {9}))))));
    return m;
  }

  @Test
  void aTypedGetModifyPutKeepsAttributesTheClassDoesNotMap() {
    TypedTable<Order> t = orders();
    Order v1 = t.put(order("keep", 3, Status.OPEN));
    Key key = t.keyOf(v1);
    Update.Builder extra = Update.builder();
    foreign().forEach(extra::set);
    t.table().update(key, extra.build());
    Order read = t.get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read.version()).isEqualTo(2);
    Order changed =
        new Order(
            read.tenant(),
            read.placedAt(),
            Status.SHIPPED,
            read.due(),
            read.ref(),
            read.notes() + " (checked)",
            read.card(),
            read.version(),
            read.lines(),
            Set.of("late"),
            Optional.empty(),
            read.signature());
    Order v3 = t.put(changed);
    assertThat(v3.version()).isEqualTo(3);
    assertSameOrder(t.get(key, ReadOptions.CONSISTENT).orElseThrow(), withVersion(changed, 3));
    Item raw = t.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    foreign().forEach((n, v) -> assertThat(raw.get(n)).as(n).isEqualTo(v));
    assertThat(raw.find("eta")).isEmpty();
    // A stale instance still fails its version check and leaves the item as it was.
    assertThatThrownBy(() -> t.put(read)).isInstanceOf(ConditionFailedException.class);
    assertThat(t.table().get(key, ReadOptions.CONSISTENT)).contains(raw);
    // Index values follow the typed put.
    assertThat(
            t.queryAll(q -> q.index("byStatus").partition(Status.SHIPPED).sortEq(read.due()))
                .map(Order::placedAt)
                .toList())
        .containsExactly(read.placedAt());
    // replace is the explicit whole-item overwrite.
    t.replace(v3);
    Item replaced = t.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(replaced.find("audit")).isEmpty();
    assertThat(replaced.find("nested")).isEmpty();
  }

  /** A note whose body was once stored as "text"; no version, codec or index. */
  @StowageTable("typednotes")
  record Note(
      @PartitionKey String id,
      @Attribute(value = "body", aliases = "text") String body,
      Integer stars) {}

  @Test
  void aTypedPutOfARenamedFieldKeepsForeignAttributesAndDropsTheOldName() {
    orders();
    table(typedStore, TypedSchema.of(Note.class).spec());
    TypedTable<Note> notes = typedStore.table(Note.class);
    Item.Builder old = Item.builder().put("id", "n1").put("text", "old body").put("stars", 4);
    foreign().forEach(old::put);
    notes.table().put(old.build());
    Note read = notes.get(notes.key("n1"), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read).isEqualTo(new Note("n1", "old body", 4));
    assertThat(notes.put(new Note("n1", read.body() + ", edited", null)))
        .isEqualTo(new Note("n1", "old body, edited", null));
    Item raw = notes.table().get(notes.key("n1"), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(raw.getString("body")).isEqualTo("old body, edited");
    assertThat(raw.find("text")).isEmpty();
    assertThat(raw.find("stars")).isEmpty();
    foreign().forEach((n, v) -> assertThat(raw.get(n)).as(n).isEqualTo(v));
    List<String> names = new ArrayList<>(List.of("id", "body"));
    names.addAll(foreign().keySet());
    assertThat(raw.attributes().keySet()).containsExactlyInAnyOrderElementsOf(names);
  }

  /** A parcel with an address (a nested record holding another) and an encrypted one. */
  @StowageTable("typedparcels")
  record Parcel(@PartitionKey String id, Address to, @Encrypted Address from, int weight) {}

  /** An address; "town" was once stored as "city". */
  record Address(
      String street, @Attribute(value = "town", aliases = "city") String town, Geo geo) {}

  /** A position. */
  record Geo(BigDecimal lat, BigDecimal lon) {}

  @Test
  void aTypedPutKeepsKeysOtherWritersAddedInsideNestedMaps() {
    orders();
    table(typedStore, TypedSchema.of(Parcel.class).spec());
    TypedTable<Parcel> parcels = typedStore.table(Parcel.class);
    Geo geo = new Geo(new BigDecimal("51.5"), new BigDecimal("-0.12"));
    Parcel p = new Parcel("p1", new Address("1 Main St", "London", geo), null, 3);
    parcels.put(p);
    Key key = parcels.keyOf(p);
    Map<String, AttributeValue> to = new LinkedHashMap<>();
    to.put("street", AttributeValue.of("1 Main St"));
    to.put("town", AttributeValue.of("London"));
    to.put("city", AttributeValue.of("stale old name"));
    to.put("zip", AttributeValue.of("N1 9GU"));
    to.put(
        "geo",
        AttributeValue.map(
            Map.of(
                "lat", AttributeValue.of(new BigDecimal("51.5")),
                "lon", AttributeValue.of(new BigDecimal("-0.12")),
                "alt", AttributeValue.of(35))));
    Map<String, AttributeValue> from = new LinkedHashMap<>();
    from.put("street", AttributeValue.of("2 Bank St"));
    from.put("vat", AttributeValue.of("GB123"));
    parcels
        .table()
        .update(
            key,
            Update.builder()
                .set("to", AttributeValue.map(to))
                .set("from", AttributeValue.map(from))
                .build());
    Parcel read = parcels.get(key, ReadOptions.CONSISTENT).orElseThrow();
    assertThat(read.to().geo()).isEqualTo(geo);
    parcels.put(
        new Parcel(
            "p1",
            new Address("9 Elm St", read.to().town(), new Geo(BigDecimal.ONE, BigDecimal.TEN)),
            new Address("3 Bank St", null, null),
            4));
    Item raw = parcels.table().get(key, ReadOptions.CONSISTENT).orElseThrow();
    Map<String, AttributeValue> storedTo = raw.getMap("to");
    assertThat(storedTo.get("street")).isEqualTo(AttributeValue.of("9 Elm St"));
    assertThat(storedTo.get("zip")).isEqualTo(AttributeValue.of("N1 9GU"));
    assertThat(storedTo).doesNotContainKey("city");
    Map<String, AttributeValue> storedGeo =
        ((AttributeValue.MapValue) storedTo.get("geo")).values();
    assertThat(storedGeo.get("lat")).isEqualTo(AttributeValue.of(1));
    assertThat(storedGeo.get("alt")).isEqualTo(AttributeValue.of(35));
    Map<String, AttributeValue> storedFrom = raw.getMap("from");
    assertThat(storedFrom.get("street")).isEqualTo(AttributeValue.of("3 Bank St"));
    assertThat(storedFrom.get("vat")).isEqualTo(AttributeValue.of("GB123"));
    assertThat(raw.getLong("weight")).isEqualTo(4);
    assertThat(parcels.get(key, ReadOptions.CONSISTENT).orElseThrow().to().town())
        .isEqualTo("London");
  }

  /** The first version of a person: a name, a nickname and a bio. */
  record PersonV1(@PartitionKey String id, String name, String nickname, String bio) {}

  /** Adds an age and an optional e-mail address. */
  record PersonV2(
      @PartitionKey String id,
      String name,
      String nickname,
      String bio,
      Integer age,
      Optional<String> email) {}

  /** Removes the nickname, renames "name" to "fullName" (reading the old name), compresses bio. */
  record PersonV3(
      @PartitionKey String id,
      @Attribute(value = "fullName", aliases = "name") String name,
      @Compressed String bio,
      Integer age,
      Optional<String> email) {}

  private <T> TypedTable<T> person(Class<T> version) {
    return typedStore.table(TypedSchema.builder(version).tableName("typedpeople").build());
  }

  @Test
  void itemsOfEarlierVersionsOfAClassReadAfterEachEvolutionStep() {
    orders();
    table(typedStore, TypedSchema.builder(PersonV1.class).tableName("typedpeople").build().spec());
    String bio = "Wrote the first program for the Analytical Engine. ".repeat(30);
    person(PersonV1.class).put(new PersonV1("ada", "Ada", "ada", bio));

    // Adding fields: the old item reads with them absent.
    TypedTable<PersonV2> v2 = person(PersonV2.class);
    assertThat(v2.get(v2.key("ada"), ReadOptions.CONSISTENT))
        .contains(new PersonV2("ada", "Ada", "ada", bio, null, Optional.empty()));
    v2.put(new PersonV2("grace", "Grace", "amazing grace", bio, 85, Optional.of("g@navy.mil")));

    // Removing a field, renaming one with an alias, compressing one: old items of both earlier
    // versions read; a put stores the new name, drops the old one, keeps the removed field's
    // attribute (the class no longer maps it) and compresses the bio.
    TypedTable<PersonV3> v3 = person(PersonV3.class);
    assertThat(v3.get(v3.key("ada"), ReadOptions.CONSISTENT))
        .contains(new PersonV3("ada", "Ada", bio, null, Optional.empty()));
    assertThat(v3.get(v3.key("grace"), ReadOptions.CONSISTENT))
        .contains(new PersonV3("grace", "Grace", bio, 85, Optional.of("g@navy.mil")));
    v3.put(new PersonV3("ada", "Ada Lovelace", bio, 36, Optional.empty()));
    Item raw = v3.table().get(v3.key("ada"), ReadOptions.CONSISTENT).orElseThrow();
    assertThat(raw.getString("fullName")).isEqualTo("Ada Lovelace");
    assertThat(raw.find("name")).isEmpty();
    assertThat(raw.getString("nickname")).isEqualTo("ada");
    assertThat(v3.get(v3.key("ada"), ReadOptions.CONSISTENT))
        .contains(new PersonV3("ada", "Ada Lovelace", bio, 36, Optional.empty()));
    var spec = v3.table().spec();
    TableLayout layout =
        new TableLayout(new TableRef(namespace, spec.name()), spec.keySchema(), List.of());
    Item stored = driver().get(layout, v3.key("ada"), true).orElseThrow().item();
    assertThat(stored.get("bio")).isInstanceOf(AttributeValue.BinaryValue.class);
    assertThat(stored.getString("nickname")).isEqualTo("ada");
  }

  static String flatten(java.util.Collection<AttributeValue> values) {
    StringBuilder sb = new StringBuilder();
    for (AttributeValue v : values) {
      if (v instanceof AttributeValue.StringValue s) {
        sb.append(s.value()).append('\n');
      } else if (v instanceof AttributeValue.BinaryValue b) {
        sb.append(new String(b.value().toByteArray(), StandardCharsets.ISO_8859_1)).append('\n');
      } else if (v instanceof AttributeValue.ListValue l) {
        sb.append(flatten(l.values()));
      } else if (v instanceof AttributeValue.MapValue m) {
        sb.append(flatten(m.values().values()));
      }
    }
    return sb.toString();
  }
}
