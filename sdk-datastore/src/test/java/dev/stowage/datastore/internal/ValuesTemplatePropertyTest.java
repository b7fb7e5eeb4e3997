package dev.stowage.datastore.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import dev.stowage.item.AttributeValue;
import dev.stowage.testkit.Generators;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Templates never change what a value reads as: whatever native value was stored before, writing a
 * Stowage value in its place reads back as that value; and a native value read and written back
 * unchanged is the native value itself (type, index flag, meaning, embedded key).
 */
class ValuesTemplatePropertyTest {
  private static final Values VALUES = new Values("test");
  private static final Key OWNER = Key.newBuilder("test", "User", "ann").setNamespace("ns").build();

  private static Value<?> indexed(Value<?> v) {
    return v.toBuilder().setExcludeFromIndexes(false).build();
  }

  @SuppressWarnings("deprecation")
  static List<Value<?>> templates() {
    FullEntity<?> keyed =
        FullEntity.newBuilder(Key.newBuilder(OWNER, "Address", "home").build())
            .set("city", "Berlin")
            .set("geo", LatLng.of(1.5, -2.25))
            .build();
    return List.of(
        StringValue.of("indexed"),
        StringValue.newBuilder("text").setExcludeFromIndexes(true).setMeaning(15).build(),
        LongValue.of(42),
        DoubleValue.of(4.5),
        DoubleValue.of(3.0),
        DoubleValue.of(Double.NaN),
        DoubleValue.of(-0.0),
        DoubleValue.of(1e300),
        BooleanValue.of(true),
        NullValue.of(),
        BlobValue.of(Blob.copyFrom(new byte[] {1, 2})),
        TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(1714566896L, 123456000)),
        LatLngValue.of(LatLng.of(52.52, 13.405)),
        KeyValue.of(OWNER),
        EntityValue.of(keyed),
        EntityValue.of(FullEntity.newBuilder().set("~x", "tilde").set("__typename", "A").build()),
        ListValue.of(indexed(StringValue.of("a")), LongValue.of(1), DoubleValue.of(0.5)),
        ListValue.of(EntityValue.of(keyed), TimestampValue.of(Timestamp.ofTimeMicroseconds(7))),
        VALUES.toDatastore(AttributeValue.stringSet("a", "b")),
        VALUES.toDatastore(AttributeValue.of(new BigDecimal("0.12345678901234567890"))));
  }

  @Provide
  Arbitrary<Value<?>> template() {
    return Arbitraries.of(templates());
  }

  /** Stowage values, plus values shaped like what the templates read as (to hit every fit). */
  @Provide
  Arbitrary<AttributeValue> value() {
    return Arbitraries.oneOf(
        Generators.values(),
        Arbitraries.of(templates()).map(VALUES::fromDatastore),
        Arbitraries.of(
            AttributeValue.of("2025-01-02T03:04:05.000006Z"),
            AttributeValue.of("2025-01-02T03:04:05Z"),
            AttributeValue.of("Infinity"),
            AttributeValue.of("1E+300"),
            AttributeValue.of(Key.newBuilder(OWNER, "Order", 7L).build().toUrlSafe()),
            AttributeValue.map(
                Map.of(
                    "latitude", AttributeValue.of(new BigDecimal("-33.9")),
                    "longitude", AttributeValue.of(new BigDecimal("151.2")))),
            AttributeValue.map(
                Map.of(
                    "latitude", AttributeValue.of(new BigDecimal("91")),
                    "longitude", AttributeValue.of(0))),
            AttributeValue.map(Map.of("city", AttributeValue.of("Potsdam"))),
            AttributeValue.list(
                AttributeValue.of("x"), AttributeValue.list(AttributeValue.of(1)))));
  }

  @Property(tries = 2000)
  void aValueWrittenInPlaceOfAnyTemplateReadsBackExactly(
      @ForAll("value") AttributeValue v, @ForAll("template") Value<?> template) {
    assertThat(VALUES.fromDatastore(VALUES.toDatastore(v, template))).isEqualTo(v);
  }

  @Property(tries = 100)
  void anUnchangedNativeValueIsWrittenBackAsItself(@ForAll("template") Value<?> template) {
    assertThat(VALUES.toDatastore(VALUES.fromDatastore(template), template)).isEqualTo(template);
  }
}
