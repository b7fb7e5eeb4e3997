package dev.stowage.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import dev.stowage.spi.StoredItems;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.SerializableUtils;
import org.junit.jupiter.api.Test;

/** The item coder keeps every value type, stored names and map order exactly. */
class ItemCoderTest {
  static Item roundTrip(Item item) throws IOException {
    Coder<Item> coder = SerializableUtils.clone(StowageIO.itemCoder());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    coder.encode(item, out);
    return coder.decode(new ByteArrayInputStream(out.toByteArray()));
  }

  @Test
  void everyValueTypeAndReservedNamesRoundTrip() throws IOException {
    Map<String, AttributeValue> nested = new LinkedHashMap<>();
    nested.put("z", AttributeValue.of("last first"));
    nested.put("a", AttributeValue.of(1));
    Map<String, AttributeValue> a = new LinkedHashMap<>();
    a.put("id", AttributeValue.of("k-1"));
    a.put("n", AttributeValue.of(new BigDecimal("12345678901234567890.123456789")));
    a.put("neg", AttributeValue.of(new BigDecimal("-0.001")));
    a.put("bin", AttributeValue.of(Bytes.of(new byte[] {0, 1, (byte) 0xff})));
    a.put("t", AttributeValue.of(true));
    a.put("f", AttributeValue.of(false));
    a.put("nil", new AttributeValue.NullValue());
    a.put(
        "list",
        new AttributeValue.ListValue(
            List.of(AttributeValue.of("x"), new AttributeValue.MapValue(nested))));
    a.put("map", new AttributeValue.MapValue(nested));
    a.put("ss", new AttributeValue.StringSetValue(List.of("b", "a", "ü")));
    a.put("ns", new AttributeValue.NumberSetValue(List.of(new BigDecimal("2.50"), BigDecimal.ONE)));
    a.put(
        "bs", new AttributeValue.BinarySetValue(List.of(Bytes.of(new byte[] {2}), Bytes.empty())));
    a.put("stowage:ix:byDay:p", AttributeValue.of(Bytes.of(new byte[] {9, 9})));
    a.put("empty", AttributeValue.of(""));
    Item item = StoredItems.of(a);

    Item back = roundTrip(item);
    assertThat(back).isEqualTo(item);
    assertThat(back.attributes().keySet()).containsExactlyElementsOf(item.attributes().keySet());
    assertThat(((AttributeValue.MapValue) back.get("map")).values().keySet())
        .containsExactlyElementsOf(((AttributeValue.MapValue) item.get("map")).values().keySet());
    assertThat(back.getNumber("n")).isEqualByComparingTo("12345678901234567890.123456789");
  }

  @Test
  void theEmptyItemRoundTripsAndTruncatedInputIsRefused() throws IOException {
    assertThat(roundTrip(Item.empty())).isEqualTo(Item.empty());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StowageIO.itemCoder().encode(Item.builder().put("a", "value").build(), out);
    byte[] bytes = out.toByteArray();
    byte[] cut = java.util.Arrays.copyOf(bytes, bytes.length - 3);
    assertThatThrownBy(() -> StowageIO.itemCoder().decode(new ByteArrayInputStream(cut)))
        .isInstanceOf(IOException.class);
    byte[] badTag = bytes.clone();
    badTag[4 + 4 + 1] = 99; // count, name length, name "a", then the value's tag
    assertThatThrownBy(() -> StowageIO.itemCoder().decode(new ByteArrayInputStream(badTag)))
        .isInstanceOf(CoderException.class)
        .hasMessageContaining("unknown attribute value tag 99");
  }
}
