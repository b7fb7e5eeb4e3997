package dev.stowage.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.spi.StoredItems;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Items built from arrays in any order ({@link StoredItems#of(String[], AttributeValue[], int)}),
 * which remember the name orders they saw: a remembered order must never change what an item holds
 * nor let a name or value through that the full check would refuse.
 */
class StoredShapesTest {
  private static Item stored(String[] names, AttributeValue... values) {
    return StoredItems.of(names.clone(), values, names.length);
  }

  private static AttributeValue s(String v) {
    return AttributeValue.of(v);
  }

  @Test
  void theSameShapeAgainReadsEachItemsOwnValuesInNameOrder() {
    String[] shape = {"sk", "name", "pk", "age", "active"};
    for (int round = 0; round < 3; round++) {
      Item item =
          stored(
              shape,
              AttributeValue.of(round),
              s("n" + round),
              s("p" + round),
              AttributeValue.of(20 + round),
              AttributeValue.of(round % 2 == 0));
      assertThat(List.copyOf(item.names())).containsExactly("active", "age", "name", "pk", "sk");
      assertThat(item.getLong("sk")).isEqualTo(round);
      assertThat(item.getString("name")).isEqualTo("n" + round);
      assertThat(item.getString("pk")).isEqualTo("p" + round);
      assertThat(item.getLong("age")).isEqualTo(20 + round);
      assertThat(item.getBoolean("active")).isEqualTo(round % 2 == 0);
    }
  }

  @Test
  void sameNamesInAnotherOrderOrOneOtherNameAreSortedAfresh() {
    stored(new String[] {"b", "a", "c"}, s("B"), s("A"), s("C"));
    Item reordered = stored(new String[] {"c", "b", "a"}, s("C"), s("B"), s("A"));
    assertThat(List.copyOf(reordered.names())).containsExactly("a", "b", "c");
    assertThat(reordered.getString("a")).isEqualTo("A");
    assertThat(reordered.getString("c")).isEqualTo("C");
    Item other = stored(new String[] {"b", "a", "d"}, s("B"), s("A"), s("D"));
    assertThat(List.copyOf(other.names())).containsExactly("a", "b", "d");
    assertThat(other.getString("d")).isEqualTo("D");
  }

  @Test
  void aRememberedShapeLetsNoInvalidNameDuplicateOrNullValueThrough() {
    String[] good = {"x1", "y", "z"};
    stored(good, s("1"), s("2"), s("3"));
    stored(good, s("1"), s("2"), s("3"));
    // Same size and first name as the remembered shape: the slot is the same one.
    assertThatThrownBy(() -> stored(new String[] {"x1", "y", "bad\u0001"}, s("1"), s("2"), s("3")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("control character");
    assertThatThrownBy(() -> stored(new String[] {"x1", "y", "y"}, s("1"), s("2"), s("3")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("appears twice");
    assertThatThrownBy(() -> stored(good, s("1"), null, s("3")))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("y");
    assertThatThrownBy(() -> stored(new String[] {"", "y", "z"}, s("1"), s("2"), s("3")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anItemOfRememberedShapeDoesNotShareArraysWithTheNext() {
    String[] shape = {"q", "p"};
    Item first = stored(shape, s("Q1"), s("P1"));
    Item second = stored(shape, s("Q2"), s("P2"));
    Item third = stored(shape, s("Q3"), s("P3"));
    assertThat(first.getString("q")).isEqualTo("Q1");
    assertThat(second.getString("p")).isEqualTo("P2");
    assertThat(third.getString("q")).isEqualTo("Q3");
    assertThat(first).isEqualTo(stored(new String[] {"p", "q"}, s("P1"), s("Q1")));
  }
}
