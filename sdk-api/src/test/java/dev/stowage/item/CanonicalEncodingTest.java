package dev.stowage.item;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.spi.StoredItems;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CanonicalEncodingTest {
  @Test
  void encodesTheExampleOfTheFormatDocument() {
    AttributeValue v =
        AttributeValue.map(
            Map.of(
                "a", AttributeValue.of(true),
                "n", AttributeValue.list(List.of(AttributeValue.of(1), AttributeValue.of("x")))));
    assertThat(HexFormat.of().formatHex(CanonicalEncoding.encode(v)))
        .isEqualTo("0802016105016e0702020131010178");
  }

  @Test
  void anItemEncodesAsTheMapOfItsAttributesWhateverTheirOrderOrNumberSpelling() {
    Map<String, AttributeValue> one = new LinkedHashMap<>();
    one.put("z", AttributeValue.of(new java.math.BigDecimal("12.50")));
    one.put("__ovf", AttributeValue.of(Bytes.wrap(new byte[] {1})));
    Map<String, AttributeValue> two = new LinkedHashMap<>();
    two.put("__ovf", AttributeValue.of(Bytes.wrap(new byte[] {1})));
    two.put("z", AttributeValue.of(new java.math.BigDecimal("12.5")));
    byte[] a = CanonicalEncoding.encode(StoredItems.of(one));
    assertThat(a).isEqualTo(CanonicalEncoding.encode(StoredItems.of(two)));
    assertThat(a).isEqualTo(CanonicalEncoding.encode(AttributeValue.map(one)));
  }
}
