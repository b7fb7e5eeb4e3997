package dev.stowage.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The kit's own parts: scale floors, generators, the clock. */
class KitPartsTest {

  @Test
  void scaleRefusesCountsBelowTheirFloors() {
    assertThat(Scale.full().pagingItems()).isEqualTo(10_000);
    assertThat(Scale.full().withPaging(2_000, 500).pageSizeOneItems()).isEqualTo(500);
    assertThatThrownBy(() -> Scale.full().withCounter(2, 500))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Scale.full().withBatchItems(1_000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Scale.full().withPaging(1_000, 2_000))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theMutableClockMovesOnlyWhenTold() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(clock.instant()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    clock.advance(Duration.ofMinutes(5));
    assertThat(clock.withZone(java.time.ZoneId.of("Europe/Paris")).instant())
        .isEqualTo(Instant.parse("2026-01-01T00:05:00Z"));
  }

  @Test
  void generatorsAreDeterministicAndCoverTheEdges() {
    var a = Generators.samples(Generators.items(), 100, 42);
    var b = Generators.samples(Generators.items(), 100, 42);
    assertThat(a).isEqualTo(b);
    var numbers = Generators.samples(Generators.numbers(), 500, 1);
    assertThat(numbers)
        .allSatisfy(n -> assertThat(new AttributeValue.NumberValue(n).value()).isEqualTo(n));
    assertThat(numbers).anyMatch(n -> n.precision() > 30).anyMatch(n -> n.signum() < 0);
    var strings = Generators.samples(Generators.strings(), 500, 1);
    assertThat(strings)
        .contains("")
        .anyMatch(s -> s.codePoints().anyMatch(Character::isSupplementaryCodePoint));
    var items = Generators.samples(Generators.items(), 200, 3);
    assertThat(items)
        .anyMatch(
            i ->
                i.attributes().values().stream()
                    .anyMatch(v -> v instanceof AttributeValue.MapValue));
    assertThat(items).contains(Item.empty());
    assertThat(Generators.edgeNumbers()).contains(new BigDecimal("0.3"));
  }
}
