package dev.stowage.azure.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.spi.NativeDoubles;
import java.math.BigDecimal;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class TypedCodecProperties {
  @Provide
  Arbitrary<AttributeValue> values() {
    return Arbitraries.lazyOf(
        () -> Arbitraries.strings().ofMaxLength(8).map(s -> (AttributeValue) AttributeValue.of(s)),
        () ->
            Arbitraries.bigDecimals()
                .between(new BigDecimal("-1E20"), new BigDecimal("1E20"))
                .ofScale(6)
                .map(d -> (AttributeValue) AttributeValue.of(d)),
        () -> Arbitraries.bytes().array(byte[].class).ofMaxSize(5).map(AttributeValue::of),
        () -> Arbitraries.of(true, false).map(AttributeValue::of),
        () -> Arbitraries.just(AttributeValue.nullValue()),
        () -> values().list().ofMaxSize(3).map(AttributeValue::list),
        () ->
            Arbitraries.maps(Arbitraries.strings().ofMaxLength(4), values())
                .ofMaxSize(3)
                .map(AttributeValue::map),
        () ->
            Arbitraries.strings()
                .ofMaxLength(3)
                .set()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(AttributeValue::stringSet),
        () ->
            Arbitraries.bigDecimals()
                .between(BigDecimal.valueOf(-1000), BigDecimal.valueOf(1000))
                .ofScale(2)
                .set()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(AttributeValue::numberSet),
        () ->
            Arbitraries.bytes()
                .array(byte[].class)
                .ofMaxSize(3)
                .map(Bytes::of)
                .set()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(AttributeValue::binarySet));
  }

  @Property(tries = 500)
  void everyValueRoundTrips(@ForAll("values") AttributeValue value) {
    assertThat(TypedCodec.decode(TypedCodec.encode(value))).isEqualTo(value);
    assertThat(TypedCodec.decodeNamed(TypedCodec.encodeNamed("näme", value)))
        .isEqualTo(Map.entry("näme", value));
  }

  @Property(tries = 200)
  void entityCodecRoundTripsThroughSdkValues(@ForAll("values") AttributeValue value) {
    EntityCodec.Property p = EntityCodec.property("attr", value);
    var schema = dev.stowage.KeySchema.of("id", dev.stowage.item.AttributeType.STRING);
    var key = dev.stowage.item.Key.of("k");
    var item = EntityCodec.item(schema, key, Map.of(p.name(), p.value()));
    assertThat(item.get("attr")).isEqualTo(value);
    // Edm.Double only for numbers with a fraction that read back from the double exactly.
    if (value instanceof AttributeValue.NumberValue n && n.value().scale() > 0) {
      if (NativeDoubles.exact(n.value()) != null) {
        assertThat(p.value()).isInstanceOf(Double.class);
      } else {
        assertThat(p.name()).startsWith(PropertyNames.TYPED);
      }
    } else {
      assertThat(p.value()).isNotInstanceOf(Double.class);
    }
    assertThat(p.value())
        .isInstanceOfAny(String.class, byte[].class, Boolean.class, Long.class, Double.class);
  }
}
