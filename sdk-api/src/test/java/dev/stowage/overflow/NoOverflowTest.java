package dev.stowage.overflow;

import static dev.stowage.overflow.Fixtures.SPEC;
import static dev.stowage.overflow.Fixtures.TABLE;
import static dev.stowage.overflow.Fixtures.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.ItemTooLargeException;
import dev.stowage.internal.OverflowHandler.Prepared;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.overflow.internal.BlobOverflow;
import dev.stowage.overflow.internal.NoOverflow;
import dev.stowage.spi.DriverLimits;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NoOverflowTest {
  private final DriverLimits limits = TestLimits.limits(4096, 4096, 20, 1500);
  private final NoOverflow none = NoOverflow.INSTANCE;

  @Test
  void itemThatFitsPassesUnchanged() {
    Item item = item("a", Map.of("x", AttributeValue.of("y")));
    Prepared p = none.prepare(TABLE, SPEC, limits, item);
    assertThat(p.item()).isSameAs(item);
    assertThat(p.blobKey()).isNull();
    none.abandon(TABLE, p);
    none.release(TABLE, item);
    assertThat(none.restore(TABLE, item, null)).isSameAs(item);
    assertThat(none.restoreAll(TABLE, List.of(item), null)).containsExactly(item);
  }

  @Test
  void oversizedItemNeedsABlobStore() {
    Item item = item("a", Map.of("x", AttributeValue.of(Fixtures.randomBytes(5000, 1))));
    assertThatThrownBy(() -> none.prepare(TABLE, SPEC, limits, item))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("needs a blob store");
  }

  @Test
  void tooManyAttributesOrIndexedValueTooLarge() {
    Map<String, AttributeValue> wide = new java.util.HashMap<>();
    for (int i = 0; i < 30; i++) {
      wide.put("a" + i, AttributeValue.of(i));
    }
    assertThatThrownBy(() -> none.prepare(TABLE, SPEC, limits, item("a", wide)))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("attributes");
    Item indexed = item("a", Map.of("cat", AttributeValue.of("c".repeat(1600))));
    assertThatThrownBy(() -> none.prepare(TABLE, SPEC, limits, indexed))
        .isInstanceOf(ItemTooLargeException.class)
        .hasMessageContaining("'cat'");
  }

  @Test
  void overflowedItemReadsOnlyWhenNoMovedAttributeIsNeeded() {
    Item item =
        item(
            "a",
            Map.of(
                "big",
                AttributeValue.of(Fixtures.randomBytes(5000, 1)),
                "s",
                AttributeValue.of("x")));
    Item stored = new BlobOverflow(new MemoryBlobStore()).prepare(TABLE, SPEC, limits, item).item();
    assertThat(none.restore(TABLE, stored, Set.of("s")).names()).containsExactly("pk", "s", "sk");
    assertThatThrownBy(() -> none.restore(TABLE, stored, null))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("no blob store is configured");
  }
}
