package dev.stowage.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.internal.ItemAccess;
import dev.stowage.item.Item;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class MemorySizeModelTest {

  @Property
  void utf8LengthIsTheLengthOfTheEncodedString(@ForAll String s) {
    assertThat(MemorySizeModel.utf8Length(s)).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void utf8LengthCountsPairsLoneSurrogatesAndEveryWidth() {
    for (String s :
        new String[] {
          "", "a", "é", "€", "😀", "a😀b", "\ud83d", "\ude00", "\ude00\ud83d", "x\ud83dy", "Zürich"
        }) {
      assertThat(MemorySizeModel.utf8Length(s))
          .as(s)
          .isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void anItemIsSizedOncePerModelAndEachModelGetsItsOwnFigure() {
    Item item = Item.builder().put("pk", "p").put("name", "Zürich").build();
    MemorySizeModel utf8 = MemorySizeModel.utf8();
    MemorySizeModel utf16 = MemorySizeModel.utf16();
    assertThat(ItemAccess.itemBytes(item, utf8)).isEqualTo(utf8.itemBytes(item));
    assertThat(ItemAccess.itemBytes(item, utf16)).isEqualTo(utf16.itemBytes(item));
    assertThat(ItemAccess.itemBytes(item, utf8)).isEqualTo(utf8.itemBytes(item));
    assertThat(utf8.itemBytes(item)).isNotEqualTo(utf16.itemBytes(item));
  }

  @Property
  void namesCountTheSameWhetherKeptOrNot(@ForAll String a, @ForAll String b) {
    // Names whose counts share a slot, counted again and again: each always counts its own bytes.
    MemorySizeModel utf8 = MemorySizeModel.utf8();
    for (int round = 0; round < 3; round++) {
      for (String name : new String[] {a, b, new String(a), a + "é"}) {
        assertThat(utf8.attributeBytes(name, dev.stowage.item.AttributeValue.of(1)))
            .as(name)
            .isEqualTo(name.getBytes(StandardCharsets.UTF_8).length + 21);
      }
    }
  }

  @Test
  void namesCountTheSameUnderEitherModelWhenKept() {
    MemorySizeModel utf8 = MemorySizeModel.utf8();
    MemorySizeModel utf16 = MemorySizeModel.utf16();
    for (int round = 0; round < 2; round++) {
      assertThat(utf8.attributeBytes("Zürich", dev.stowage.item.AttributeValue.of(true)))
          .isEqualTo(8);
      assertThat(utf16.attributeBytes("Zürich", dev.stowage.item.AttributeValue.of(true)))
          .isEqualTo(13);
    }
  }
}
