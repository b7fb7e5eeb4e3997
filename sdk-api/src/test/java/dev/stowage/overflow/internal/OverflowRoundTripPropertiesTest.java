package dev.stowage.overflow.internal;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.ItemTooLargeException;
import dev.stowage.internal.ItemAccess;
import dev.stowage.internal.OverflowHandler.Prepared;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.Fixtures;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.overflow.TestLimits;
import dev.stowage.spi.DriverLimits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** restore(prepare(item)) == item, and the stored form fits, for generated items and limits. */
class OverflowRoundTripPropertiesTest {
  private final MemoryBlobStore store = new MemoryBlobStore();
  private final BlobOverflow overflow = new BlobOverflow(store);

  @Property(tries = 150)
  void prepareThenRestoreGivesTheItemBack(
      @ForAll("items") Item item, @ForAll("limits") DriverLimits limits) {
    Prepared p;
    try {
      p = overflow.prepare(TABLE, SPEC, limits, item);
    } catch (ItemTooLargeException e) {
      // Only when the attributes that cannot move are too large by themselves.
      Map<String, AttributeValue> pinned = new LinkedHashMap<>();
      item.attributes()
          .forEach(
              (k, v) -> {
                if (!FitPlanner.movable(SPEC, k)) pinned.put(k, v);
              });
      Item rest =
          FitPlanner.withPointer(
              ItemAccess.ofStored(pinned),
              List.of(),
              Pointer.upperBound(BlobKeys.newKey(TABLE), List.of(), false));
      assertThat(
              FitPlanner.violation(limits, rest) != null
                  || e.getMessage().contains("indexed attribute"))
          .as(e.getMessage())
          .isTrue();
      return;
    }
    assertThat(FitPlanner.violation(limits, p.item())).isNull();
    if (p.blobKey() == null) {
      assertThat(p.item()).isSameAs(item);
    } else {
      for (String name : Pointer.parse(p.item().get("stowage:ovf"), "t").names()) {
        assertThat(FitPlanner.movable(SPEC, name)).isTrue();
      }
    }
    assertThat(overflow.restore(TABLE, p.item(), null)).isEqualTo(item);
    assertThat(overflow.restoreAll(TABLE, List.of(p.item(), p.item()), null))
        .containsExactly(item, item);
    overflow.release(TABLE, p.item());
    assertThat(store.size()).isZero();
  }

  @Provide
  Arbitrary<DriverLimits> limits() {
    return Combinators.combine(
            Arbitraries.longs().between(1024, 40_000),
            Arbitraries.longs().between(300, 40_000),
            Arbitraries.integers().between(8, 40),
            Arbitraries.longs().between(50, 2000))
        .as(TestLimits::limits);
  }

  @Provide
  Arbitrary<Item> items() {
    Arbitrary<String> names =
        Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(10);
    Arbitrary<Map<String, AttributeValue>> user =
        Arbitraries.maps(names, BlobFormatTest.Values.ANY).ofMaxSize(30);
    Arbitrary<AttributeValue> indexed =
        Arbitraries.strings().alpha().ofMaxLength(300).map(AttributeValue::of);
    return Combinators.combine(user, indexed, Arbitraries.integers().between(0, 20_000))
        .as(
            (attrs, cat, big) -> {
              Map<String, AttributeValue> m = new LinkedHashMap<>(attrs);
              m.remove("pk");
              m.remove("sk");
              m.put("cat", cat);
              if (big > 0) {
                m.put("blob", AttributeValue.of(Fixtures.randomBytes(big, big)));
              }
              m.put("stowage:rq", AttributeValue.list(AttributeValue.of("req")));
              return Fixtures.item("p", m);
            });
  }
}
