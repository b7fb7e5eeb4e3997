package dev.stowage.typed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.ConditionFailedException;
import dev.stowage.InvalidRequestException;
import dev.stowage.Stowage;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import dev.stowage.query.Condition;
import dev.stowage.query.ReadOptions;
import dev.stowage.query.WriteOptions;
import dev.stowage.typed.Shop.Order;
import dev.stowage.typed.Shop.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The typed table on the memory driver: reads, writes, versions, conditions, updates, queries. */
class TypedTableTest {
  static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

  static Stowage store() {
    try {
      AeadConfig.register();
      KeyProvider keys =
          KeyProvider.ofKeyset(KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM));
      return Stowage.builder(MemoryDriver.create())
          .codecs(Codecs.builder().keys(keys).build())
          .build();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private final Stowage store = store();
  private final TypedTable<Order> orders = store.ensureTable(Order.class);

  @Test
  void theSpecComesFromTheAnnotations() {
    var spec = orders.table().spec();
    assertThat(spec.name()).isEqualTo("orders");
    assertThat(spec.keySchema().partitionName()).isEqualTo("tenant");
    assertThat(spec.keySchema().sortName()).contains("placedAt");
    assertThat(spec.policy("notes").compressed()).isTrue();
    assertThat(spec.policy("card").encrypted()).isTrue();
    assertThat(spec.versionAttribute()).contains("version");
    assertThat(spec.index("byStatus").orElseThrow().partitionAttributes())
        .containsExactly("status");
    assertThat(spec.index("byStatus").orElseThrow().sortAttributes()).containsExactly("due");
  }

  @Test
  void putThenGetReturnsAnEqualRecordWithTheNewVersion() {
    Order o = Order.of("t1", T0, Status.OPEN);
    Order stored = orders.put(o);
    assertThat(stored.version()).isEqualTo(1);
    assertThat(stored).isEqualTo(withVersion(o, 1));
    assertThat(orders.get(orders.key("t1", T0), ReadOptions.CONSISTENT)).contains(stored);
  }

  @Test
  void theStoredItemHoldsThePortableForms() {
    orders.put(Order.of("t1", T0, Status.OPEN));
    Item raw = orders.table().get(Key.of("t1", "2026-05-01T10:00:00.000000000Z")).orElseThrow();
    assertThat(raw.getString("status")).isEqualTo("OPEN");
    assertThat(raw.getString("due")).isEqualTo("2026-05-02T10:00:00.000000000Z");
    assertThat(raw.get("card")).isInstanceOf(AttributeValue.MapValue.class);
    assertThat(raw.get("tags")).isEqualTo(AttributeValue.stringSet("gift"));
    assertThat(raw.has("coupon")).isFalse();
    assertThat(raw.getLong("version")).isEqualTo(1);
  }

  @Test
  void aStaleVersionIsRefusedForPutsAndDeletes() {
    Order v1 = orders.put(Order.of("t1", T0, Status.OPEN));
    Order v2 = orders.put(v1.withStatus(Status.SHIPPED));
    assertThat(v2.version()).isEqualTo(2);
    assertThatThrownBy(() -> orders.put(v1.withStatus(Status.CANCELLED)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> orders.put(Order.of("t1", T0, Status.OPEN)))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> orders.delete(v1)).isInstanceOf(ConditionFailedException.class);
    assertThat(orders.get(orders.keyOf(v1))).contains(v2);
    assertThat(orders.delete(v2)).isTrue();
    assertThat(orders.get(orders.keyOf(v1))).isEmpty();
  }

  @Test
  void conditionsNameFieldsAndTakeTheirJavaValues() {
    Order v1 = orders.put(Order.of("t1", T0, Status.OPEN));
    Condition shipped = orders.field("status").eq(Status.SHIPPED);
    assertThatThrownBy(() -> orders.put(v1.withStatus(Status.CANCELLED), shipped))
        .isInstanceOf(ConditionFailedException.class);
    Order v2 = orders.put(v1.withStatus(Status.CANCELLED), orders.field("status").eq(Status.OPEN));
    assertThat(v2.status()).isEqualTo(Status.CANCELLED);
    assertThat(
            orders.delete(
                orders.keyOf(v2), WriteOptions.when(orders.field("due").gt(T0.plusSeconds(3600)))))
        .isTrue();
  }

  @Test
  void conditionsAndUpdatesRefuseUnknownFieldsAndWrongTypes() {
    assertThatThrownBy(() -> orders.field("state"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("no stored field 'state'")
        .hasMessageContaining("status");
    assertThatThrownBy(() -> orders.field("status").eq("OPEN"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("field 'status'")
        .hasMessageContaining(Status.class.getName());
    assertThatThrownBy(() -> orders.update().set("tenant", "t2"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("is a key");
    assertThatThrownBy(() -> orders.update().increment("notes", 1))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("not a number");
  }

  @Test
  void updatesByFieldNameReturnTheTypedItem() {
    Order v1 = orders.put(Order.of("t1", T0, Status.OPEN));
    Order after =
        orders.update(
            orders.keyOf(v1),
            orders
                .update()
                .set("status", Status.SHIPPED)
                .set("coupon", "SPRING")
                .addToSet("tags", "express")
                .appendToList("lines", new Shop.Line("ink", 1, java.math.BigDecimal.TEN))
                .build());
    assertThat(after.status()).isEqualTo(Status.SHIPPED);
    assertThat(after.coupon()).contains("SPRING");
    assertThat(after.tags()).containsExactlyInAnyOrder("gift", "express");
    assertThat(after.lines()).hasSize(2);
    assertThat(after.version()).isEqualTo(2);
    assertThat(orders.get(orders.keyOf(v1))).contains(after);
  }

  @Test
  void queriesPageWithTheSameCursorsAndStreamEverything() {
    List<Order> all = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      all.add(
          orders.put(Order.of("t1", T0.plusSeconds(i), i % 3 == 0 ? Status.OPEN : Status.SHIPPED)));
    }
    orders.put(Order.of("t2", T0, Status.OPEN));
    List<Order> reversed = new ArrayList<>(all);
    java.util.Collections.reverse(reversed);
    TypedPage<Order> first = orders.query(q -> q.partition("t1").descending().limit(5));
    assertThat(first.items()).containsExactlyElementsOf(reversed.subList(0, 5));
    assertThat(first.hasBefore()).isTrue();
    TypedPage<Order> second = orders.page(first.before().orElseThrow());
    assertThat(second.items()).containsExactlyElementsOf(reversed.subList(5, 10));
    assertThat(orders.queryAll(q -> q.partition("t1").limit(4)).toList()).isEqualTo(all);
    assertThat(
            orders
                .queryAll(q -> q.partition("t1").sortBetween(T0.plusSeconds(2), T0.plusSeconds(4)))
                .map(Order::placedAt))
        .containsExactly(T0.plusSeconds(2), T0.plusSeconds(3), T0.plusSeconds(4));
    assertThat(orders.queryAll(q -> q.partition("t1").sortBeginsWith("2026-05-01T10:00:1")).count())
        .isEqualTo(2);
    List<Order> open =
        orders
            .queryAll(q -> q.index("byStatus").partition(Status.OPEN).consistentRead(false))
            .filter(o -> o.tenant().equals("t1"))
            .toList();
    assertThat(open)
        .extracting(Order::placedAt)
        .containsExactly(T0, T0.plusSeconds(3), T0.plusSeconds(6), T0.plusSeconds(9));
    assertThat(
            orders
                .queryAll(
                    q -> q.partition("t1").filter(orders.field("status").eq(Status.OPEN)).limit(2))
                .count())
        .isEqualTo(4);
  }

  @Test
  void typedQueriesRefuseValuesOfTheWrongType() {
    assertThatThrownBy(() -> orders.query(q -> q.partition(42)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("field 'tenant'");
    assertThatThrownBy(() -> orders.query(q -> q.index("byDay").partition("x")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("no index 'byDay'");
  }

  @Test
  void batchPutAndGetMapEveryItem() {
    List<Order> batch = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      batch.add(Order.of("b", T0.plusSeconds(i), Status.OPEN));
    }
    orders.batchPut(batch);
    Map<Key, Order> got =
        orders.batchGet(batch.stream().map(orders::keyOf).collect(Collectors.toList()));
    assertThat(got).hasSize(40);
    assertThat(got.get(orders.keyOf(batch.get(7))).placedAt()).isEqualTo(T0.plusSeconds(7));
    orders.batchDelete(got.keySet());
    assertThat(orders.queryAll(q -> q.partition("b")).count()).isZero();
  }

  @Test
  void putIfAbsentAndProjectionRules() {
    Order o = Order.of("t1", T0, Status.OPEN);
    assertThat(orders.putIfAbsent(o)).isTrue();
    assertThat(orders.putIfAbsent(o)).isFalse();
    assertThatThrownBy(() -> orders.get(orders.keyOf(o), ReadOptions.project("status")))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void aStoredItemThatDoesNotFitNamesItsKeyAndAttribute() {
    orders
        .table()
        .put(
            Item.builder()
                .put("tenant", "t9")
                .put("placedAt", "2026-05-01T10:00:00.000000000Z")
                .put("status", "LOST")
                .build());
    assertThatThrownBy(() -> orders.get(orders.key("t9", T0)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("t9")
        .hasMessageContaining("attribute 'status'")
        .hasMessageContaining("'LOST' is not a constant");
    orders
        .table()
        .put(
            Item.builder()
                .put("tenant", "t8")
                .put("placedAt", "2026-05-01T10:00:00.000000000Z")
                .put(
                    "lines",
                    AttributeValue.list(
                        AttributeValue.map(
                            Map.of(
                                "sku",
                                AttributeValue.of("a"),
                                "quantity",
                                AttributeValue.of("many")))))
                .build());
    assertThatThrownBy(() -> orders.get(orders.key("t8", T0)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("t8")
        .hasMessageContaining("attribute 'lines.quantity'")
        .hasMessageContaining("NUMBER");
  }

  @Test
  void anExplicitSpecThatDisagreesIsRefusedWithEveryDifference() {
    var spec =
        dev.stowage.TableSpec.builder(
                "orders",
                dev.stowage.KeySchema.of(
                    "tenant",
                    dev.stowage.item.AttributeType.STRING,
                    "placedAt",
                    dev.stowage.item.AttributeType.NUMBER))
            .compressed("notes")
            .index("byOwner", List.of("owner"), List.of())
            .build();
    var table = store.ensureTable(spec.name().equals("orders") ? renamed(spec) : spec);
    assertThatThrownBy(() -> TypedTable.of(table, Order.class))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("key: class KeySchema(tenant:STRING, placedAt:STRING)")
        .hasMessageContaining("version attribute: class 'version', spec none")
        .hasMessageContaining("attribute 'card': class encrypted, spec plain")
        .hasMessageContaining("index 'byStatus': declared by the class, missing from the spec")
        .hasMessageContaining("index 'byOwner': in the spec, not declared by the class")
        .hasMessageContaining("table name: class 'orders', spec 'orders2'");
    assertThat(TypedTable.of(store.table(orders.table().spec()), Order.class).schema().type())
        .isEqualTo(Order.class);
  }

  private static dev.stowage.TableSpec renamed(dev.stowage.TableSpec s) {
    var b = dev.stowage.TableSpec.builder("orders2", s.keySchema());
    s.indexes().forEach(b::index);
    s.policies().forEach(b::policy);
    return b.build();
  }

  private static Order withVersion(Order o, long v) {
    return new Order(
        o.tenant(),
        o.placedAt(),
        o.status(),
        o.due(),
        o.notes(),
        o.card(),
        v,
        o.lines(),
        o.tags(),
        Optional.ofNullable(o.coupon()).flatMap(x -> x));
  }

  @Test
  void typedTransactionsCheckVersionsAndCommitAllOrNothing() {
    Order a = orders.put(Order.of("tx", T0, Status.OPEN)); // version 1
    Order b = Order.of("tx", T0.plusSeconds(1), Status.OPEN); // not stored yet: version 0
    Key ka = orders.keyOf(a);
    Key kb = orders.keyOf(b);

    Stowage.Transaction tx = store.transaction();
    orders.replace(tx, a.withStatus(Status.SHIPPED), null);
    orders.replace(tx, b, orders.field("status").notExists());
    assertThat(orders.get(kb, ReadOptions.CONSISTENT)).isEmpty(); // nothing before commit
    tx.commit();
    assertThat(orders.get(ka, ReadOptions.CONSISTENT).orElseThrow())
        .isEqualTo(withVersion(a.withStatus(Status.SHIPPED), 2));
    assertThat(orders.get(kb, ReadOptions.CONSISTENT).orElseThrow()).isEqualTo(withVersion(b, 1));

    // A stale instance (version 1, stored 2) fails the whole transaction: b is not deleted.
    Stowage.Transaction stale = store.transaction();
    orders.delete(stale, withVersion(b, 1));
    orders.replace(stale, a.withStatus(Status.CANCELLED), null);
    assertThatThrownBy(stale::commit).isInstanceOf(ConditionFailedException.class);
    assertThat(orders.get(kb, ReadOptions.CONSISTENT)).isPresent();
    assertThat(orders.get(ka, ReadOptions.CONSISTENT).orElseThrow().status())
        .isEqualTo(Status.SHIPPED);

    // A new instance (version 0) of a stored item fails; a check by field name guards a write.
    Stowage.Transaction again = store.transaction();
    orders.replace(again, Order.of("tx", T0.plusSeconds(1), Status.OPEN), null);
    assertThatThrownBy(again::commit).isInstanceOf(ConditionFailedException.class);
    Stowage.Transaction checked = store.transaction();
    orders.check(checked, ka, orders.field("status").eq(Status.OPEN));
    orders.delete(checked, withVersion(b, 1));
    assertThatThrownBy(checked::commit).isInstanceOf(ConditionFailedException.class);
    orders.delete(store.transaction(), withVersion(b, 1)).commit();
    assertThat(orders.get(kb, ReadOptions.CONSISTENT)).isEmpty();
  }
}
