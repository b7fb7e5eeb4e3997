package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.ConditionFailedException;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.WriteResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpectationTest extends DriverTestBase {
  private static Item item(String v) {
    return Fixtures.item("k", Map.of("v", AttributeValue.of(v)));
  }

  @Test
  void absentWritesOnlyOnce() {
    TableLayout t = newTable(null);
    driver.put(t, item("1"), Expectation.ABSENT, false);
    assertThatThrownBy(() -> driver.put(t, item("2"), Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);
    assertThat(driver.get(t, Key.of("k"), true).orElseThrow().item().getString("v")).isEqualTo("1");
  }

  @Test
  void tokenIsCompareAndSet() {
    TableLayout t = newTable(null);
    String t1 = driver.put(t, item("1"), Expectation.ANY, false).token();
    WriteResult w2 = driver.put(t, item("2"), Expectation.token(t1), true);
    assertThat(w2.token()).isNotEqualTo(t1);
    assertThat(w2.previous()).map(StoredItem::item).contains(item("1"));
    assertThat(w2.previous().orElseThrow().token()).isEqualTo(t1);
    assertThatThrownBy(() -> driver.put(t, item("3"), Expectation.token(t1), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> driver.delete(t, Key.of("k"), Expectation.token(t1), false))
        .isInstanceOf(ConditionFailedException.class);
    WriteResult d = driver.delete(t, Key.of("k"), Expectation.token(w2.token()), true);
    assertThat(d.previous()).map(StoredItem::item).contains(item("2"));
    assertThat(driver.get(t, Key.of("k"), true)).isEmpty();
  }

  @Test
  void tokenOnMissingItemFails() {
    TableLayout t = newTable(null);
    assertThatThrownBy(() -> driver.put(t, item("1"), Expectation.token("whatever"), false))
        .isInstanceOf(ConditionFailedException.class);
    assertThatThrownBy(() -> driver.delete(t, Key.of("k"), Expectation.token("-"), false))
        .isInstanceOf(ConditionFailedException.class);
  }

  @Test
  void deleteWithAnyOrAbsentOnMissingItem() {
    TableLayout t = newTable(null);
    assertThat(driver.delete(t, Key.of("k"), Expectation.ANY, true).previous()).isEmpty();
    driver.delete(t, Key.of("k"), Expectation.ABSENT, false);
    driver.put(t, item("1"), Expectation.ANY, false);
    assertThatThrownBy(() -> driver.delete(t, Key.of("k"), Expectation.ABSENT, false))
        .isInstanceOf(ConditionFailedException.class);
  }
}
