package dev.stowage.overflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.IntegrityException;
import dev.stowage.internal.ValueWire;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.overflow.Fixtures;
import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Pins the blob and pointer formats and checks the streaming codec against ValueWire. */
class BlobFormatTest {
  private static final HexFormat HEX = HexFormat.of();

  private static byte[] bytesOf(BlobBody body) throws Exception {
    try (var in = body.openStream()) {
      return in.readAllBytes();
    }
  }

  private static Map<String, AttributeValue> read(byte[] blob) throws Exception {
    BlobReader r = new BlobReader(new ByteArrayInputStream(blob), blob.length);
    Map<String, AttributeValue> m = r.readAttributes();
    r.finish();
    return m;
  }

  @Test
  void goldenBlob() throws Exception {
    Map<String, AttributeValue> moved = new LinkedHashMap<>();
    moved.put("a", AttributeValue.of("hi"));
    moved.put("b", AttributeValue.of(Bytes.wrap(new byte[] {1, 2})));
    BlobBody body = BlobBody.of(moved);
    // "SOVF", version 1, map tag 8, 2 entries: "a" -> string "hi", "b" -> binary 0102.
    assertThat(HEX.formatHex(bytesOf(body)))
        .isEqualTo("534f5646" + "01" + "0802" + "0161" + "01026869" + "0162" + "03020102");
    assertThat(body.length()).isEqualTo(19);
    assertThat(read(bytesOf(body))).isEqualTo(moved);
  }

  /**
   * A blob of every value type, as the overflow codec wrote it before it shared {@link ValueWire}'s
   * encoder and decoder (bytes captured from that code): it must still read, and the shared codec
   * must write the same bytes. The 1,100-byte binary is above the size referenced in place.
   */
  @Test
  void blobsWrittenBeforeTheSharedCodecReadAndAreWrittenTheSame() throws Exception {
    byte[] big = new byte[1100];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i * 7);
    }
    Map<String, AttributeValue> nested = new LinkedHashMap<>();
    nested.put("z", AttributeValue.of(true));
    nested.put("a", AttributeValue.nullValue());
    Map<String, AttributeValue> moved = new LinkedHashMap<>();
    moved.put("text", AttributeValue.of("h\u00e9llo \u2713 \ud83d\ude00"));
    moved.put("num", AttributeValue.of(new BigDecimal("-12.500e3")));
    moved.put("bin", AttributeValue.of(Bytes.wrap(new byte[] {0, (byte) 0xff, 7})));
    moved.put("big", AttributeValue.of(Bytes.wrap(big)));
    moved.put("no", AttributeValue.of(false));
    moved.put("yes", AttributeValue.of(true));
    moved.put("nil", AttributeValue.nullValue());
    moved.put(
        "list",
        new AttributeValue.ListValue(
            List.of(
                AttributeValue.of("x"),
                AttributeValue.of(new BigDecimal("3")),
                new AttributeValue.ListValue(List.of()))));
    moved.put("map", new AttributeValue.MapValue(nested));
    moved.put("ss", AttributeValue.stringSet(List.of("b", "a", "\u00e4")));
    moved.put(
        "ns",
        AttributeValue.numberSet(
            List.of(new BigDecimal("10"), new BigDecimal("-1.5"), new BigDecimal("2"))));
    moved.put(
        "bs",
        AttributeValue.binarySet(
            List.of(Bytes.wrap(new byte[] {2}), Bytes.wrap(new byte[] {1, 1}))));
    String golden =
        "534f564601080c0474657874010f68c3a96c6c6f20e29c9320f09f9880036e756d02082d312e3235452b34"
            + "0362696e030300ff070362696703cc08"
            + HEX.formatHex(big)
            + "026e6f040379657305036e696c06046c69737407030101780201330700036d61700802016106017a05"
            + "02737309030161016202c3a4026e730a03042d312e3501320431452b310262730b020201010102";
    byte[] stored = HEX.parseHex(golden);
    assertThat(read(stored)).isEqualTo(moved);
    assertThat(HEX.formatHex(bytesOf(BlobBody.of(moved)))).isEqualTo(golden);
  }

  @Test
  void goldenPointer() {
    Pointer p =
        new Pointer(
            "prod/orders/00112233445566778899aabbccddeeff",
            300,
            Bytes.wrap(new byte[32]),
            List.of("zeta", "alpha"));
    String hex = HEX.formatHex(p.toValue().value().toByteArray());
    assertThat(hex)
        .isEqualTo(
            "01"
                + "2c"
                + HEX.formatHex("prod/orders/00112233445566778899aabbccddeeff".getBytes())
                + "ac02"
                + "20"
                + "00".repeat(32)
                + "00"
                + "02"
                + "05"
                + HEX.formatHex("alpha".getBytes())
                + "04"
                + HEX.formatHex("zeta".getBytes()));
    assertThat(Pointer.parse(p.toValue(), "t")).isEqualTo(p);
  }

  @Test
  void goldenPointerWithoutNames() {
    Pointer p = new Pointer("a/b/c", 5, Bytes.wrap(new byte[32]), List.of(), false);
    assertThat(HEX.formatHex(p.toValue().value().toByteArray()))
        .isEqualTo(
            "01" + "05" + HEX.formatHex("a/b/c".getBytes()) + "05" + "20" + "00".repeat(32) + "01");
    assertThat(Pointer.parse(p.toValue(), "t")).isEqualTo(p);
  }

  @Test
  void pointerWithTrailingBytesOrBadDigestIsRejected() {
    byte[] good =
        new Pointer("a/b/c", 1, Bytes.wrap(new byte[32]), List.of("x"))
            .toValue()
            .value()
            .toByteArray();
    byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
    assertThatThrownBy(() -> Pointer.parse(AttributeValue.of(Bytes.wrap(longer)), "t"))
        .isInstanceOf(IntegrityException.class);
    byte[] badKey = good.clone();
    badKey[2] = '~';
    assertThatThrownBy(() -> Pointer.parse(AttributeValue.of(Bytes.wrap(badKey)), "t"))
        .isInstanceOf(IntegrityException.class);
  }

  @Property(tries = 200)
  void streamingEncoderWritesValueWireBytes(@ForAll("values") Map<String, AttributeValue> moved)
      throws Exception {
    byte[] blob = bytesOf(BlobBody.of(new AttributeValue.MapValue(moved).values()));
    byte[] wire = ValueWire.encode(new AttributeValue.MapValue(moved));
    assertThat(java.util.Arrays.copyOfRange(blob, 5, blob.length)).isEqualTo(wire);
    assertThat(read(blob)).isEqualTo(moved);
    assertThat(ValueWire.decode(java.util.Arrays.copyOfRange(blob, 5, blob.length)))
        .isEqualTo(new AttributeValue.MapValue(moved));
  }

  @Property(tries = 200)
  void corruptedBlobsNeverDecodeSilently(
      @ForAll("values") Map<String, AttributeValue> moved, @ForAll int position, @ForAll byte flip)
      throws Exception {
    byte[] blob = bytesOf(BlobBody.of(new AttributeValue.MapValue(moved).values()));
    int i = Math.floorMod(position, blob.length);
    byte[] bad = blob.clone();
    bad[i] ^= (byte) (flip == 0 ? 1 : flip);
    BlobReader r = new BlobReader(new ByteArrayInputStream(bad), blob.length);
    byte[] digest;
    try {
      r.readAttributes();
      digest = r.finish();
    } catch (BlobReader.FormatException e) {
      return; // rejected as malformed
    }
    byte[] expected = BlobBody.of(new AttributeValue.MapValue(moved).values()).sha256Digest();
    assertThat(digest).isNotEqualTo(expected);
  }

  @Test
  void strictUtf8() {
    assertThat(Utf8.isValid("héllo €𝄞".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
        .isTrue();
    assertThat(Utf8.isValid(new byte[] {(byte) 0xC0, (byte) 0x80})).isFalse(); // overlong
    assertThat(Utf8.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).isFalse();
    assertThat(Utf8.isValid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}))
        .isFalse();
    assertThat(Utf8.isValid(new byte[] {(byte) 0xE2, (byte) 0x82})).isFalse(); // truncated
    assertThat(Utf8.isValid(new byte[] {(byte) 0x80})).isFalse();
  }

  @Provide
  Arbitrary<Map<String, AttributeValue>> values() {
    return Arbitraries.maps(
            Arbitraries.strings().ofMinLength(1).ofMaxLength(12).alpha(), Values.ANY)
        .ofMaxSize(6);
  }

  /** Generators of attribute values of every type, shared by the property tests. */
  static final class Values {
    /** Values nested up to two levels, built once so jqwik can reuse its generators. */
    static final Arbitrary<AttributeValue> ANY = any(2);

    private Values() {}

    static Arbitrary<AttributeValue> scalar() {
      Arbitrary<AttributeValue> str =
          Arbitraries.strings().ofMaxLength(40).map(s -> sanitize(s)).map(AttributeValue::of);
      Arbitrary<AttributeValue> num =
          Arbitraries.bigDecimals()
              .between(new BigDecimal("-1e12"), new BigDecimal("1e12"))
              .ofScale(4)
              .map(AttributeValue::of);
      // Size and seed instead of element-wise arrays: far cheaper to generate and shrink.
      Arbitrary<AttributeValue> bin =
          Arbitraries.integers()
              .between(0, 3000)
              .flatMap(n -> Arbitraries.longs().map(seed -> Fixtures.randomBytes(n, seed)))
              .map(AttributeValue::of);
      Arbitrary<AttributeValue> bool = Arbitraries.of(true, false).map(AttributeValue::of);
      Arbitrary<AttributeValue> nul = Arbitraries.just(AttributeValue.nullValue());
      Arbitrary<AttributeValue> sset =
          Arbitraries.strings()
              .alpha()
              .ofMaxLength(8)
              .set()
              .ofMinSize(1)
              .ofMaxSize(4)
              .map(AttributeValue::stringSet);
      Arbitrary<AttributeValue> nset =
          Arbitraries.longs()
              .map(BigDecimal::valueOf)
              .set()
              .ofMinSize(1)
              .ofMaxSize(4)
              .map(AttributeValue::numberSet);
      Arbitrary<AttributeValue> bset =
          Arbitraries.bytes()
              .array(byte[].class)
              .ofMaxSize(6)
              .map(Bytes::of)
              .set()
              .ofMinSize(1)
              .ofMaxSize(3)
              .map(AttributeValue::binarySet);
      return Arbitraries.oneOf(str, num, bin, bool, nul, sset, nset, bset);
    }

    static Arbitrary<AttributeValue> any(int depth) {
      if (depth == 0) {
        return scalar();
      }
      Arbitrary<AttributeValue> list = any(depth - 1).list().ofMaxSize(4).map(AttributeValue::list);
      Arbitrary<AttributeValue> map =
          Arbitraries.maps(
                  Arbitraries.strings().ofMaxLength(6).map(Values::sanitize), any(depth - 1))
              .ofMaxSize(4)
              .map(AttributeValue::map);
      return Arbitraries.frequencyOf(
          net.jqwik.api.Tuple.of(6, scalar()),
          net.jqwik.api.Tuple.of(1, list),
          net.jqwik.api.Tuple.of(1, map));
    }

    /** Replaces lone surrogates, which strings values reject. */
    static String sanitize(String s) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        b.append(Character.isSurrogate(c) ? '?' : c);
      }
      return b.toString();
    }
  }
}
