package dev.stowage.dynamodb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItems;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DynamoSizeModelTest {
  private final DynamoSizeModel model = new DynamoSizeModel();

  @Test
  void countsNamesAndValuesTheWayDynamoDbDoes() {
    assertThat(model.attributeBytes("name", AttributeValue.of("héllo"))).isEqualTo(4 + 6);
    assertThat(model.attributeBytes("b", AttributeValue.of(new byte[10]))).isEqualTo(11);
    assertThat(model.attributeBytes("t", AttributeValue.of(true))).isEqualTo(2);
    assertThat(model.attributeBytes("n", AttributeValue.nullValue())).isEqualTo(2);
    assertThat(
            model.attributeBytes(
                "x", AttributeValue.list(AttributeValue.of("ab"), AttributeValue.of(true))))
        .isEqualTo(1 + 3 + (1 + 2) + (1 + 1));
    assertThat(model.attributeBytes("m", AttributeValue.map(Map.of("k", AttributeValue.of("v")))))
        .isEqualTo(1 + 3 + 1 + 1 + 1);
    assertThat(model.attributeBytes("s", AttributeValue.stringSet("a", "bb"))).isEqualTo(1 + 3);
    assertThat(model.attributeBytes("e", AttributeValue.of("😀"))).isEqualTo(1 + 4);
  }

  @Test
  void numbersAreNeverUnderCounted() {
    // DynamoDB: about one byte per two significant digits plus one.
    assertThat(model.attributeBytes("n", AttributeValue.of(7))).isGreaterThanOrEqualTo(1 + 2);
    assertThat(
            model.attributeBytes(
                "n", AttributeValue.of(new BigDecimal("12345678901234567890123456789012345678"))))
        .isGreaterThanOrEqualTo(1 + 20);
    assertThat(
            model.attributeBytes(
                "n", AttributeValue.numberSet(List.of(BigDecimal.ONE, BigDecimal.TEN))))
        .isGreaterThanOrEqualTo(1 + 2 + 2);
  }

  @Test
  void itemsIncludeTheTokenAttribute() {
    Item item = StoredItems.of(Map.of("pk", AttributeValue.of("a")));
    assertThat(model.itemBytes(item)).isEqualTo(3 + "stowage:tok".length() + Tokens.TOKEN_LENGTH);
    assertThat(Tokens.next()).hasSize(Tokens.TOKEN_LENGTH);
  }
}
