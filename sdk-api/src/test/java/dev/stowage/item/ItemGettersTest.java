package dev.stowage.item;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

/** The typed getters of {@link Item}: what they return, and what their failures say. */
class ItemGettersTest {
  private final Item item =
      Item.builder()
          .put("total", 40)
          .put("name", "Ada")
          .put("tags", AttributeValue.stringSet("a", "b"))
          .build();

  @Test
  void aGetterOfAnotherTypeNamesBothTypesAsAttributeTypes() {
    assertThatThrownBy(() -> item.getString("total"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("attribute 'total' is a NUMBER, not a STRING");
    assertThatThrownBy(() -> item.getNumberSet("tags"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("attribute 'tags' is a STRING_SET, not a NUMBER_SET");
    assertThatThrownBy(() -> item.getLong("name"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("attribute 'name' is a STRING, not a NUMBER");
  }

  @Test
  void aMissingAttributeIsNamed() {
    assertThatThrownBy(() -> item.getString("nope"))
        .isInstanceOf(NoSuchElementException.class)
        .hasMessage("item has no attribute 'nope'");
  }

  @Test
  void numbersReadNormalisedAsTheJavadocSays() {
    assertThat(item.getNumber("total")).isEqualTo(new BigDecimal("4E+1"));
    assertThat(item.getNumber("total").toPlainString()).isEqualTo("40");
    assertThat(item.getLong("total")).isEqualTo(40L);
  }
}
