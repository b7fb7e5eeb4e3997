package dev.stowage.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.AttributePolicy;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every value type round-trips through every policy and codec configuration. */
class RoundTripPropertiesTest {
  private static final Key KEY = Key.of("p", "s");

  /** The configurations a value may be written and read under. */
  private static final List<Codecs> CONFIGURATIONS =
      List.of(
          Codecs.defaults(),
          Codecs.builder()
              .keys(KeyProvider.ofKeyset(TestKeys.fresh()))
              .compressionLevel(1)
              .minCompressSize(0)
              .build(),
          Codecs.builder()
              .keys(KeyProvider.ofKeyset(TestKeys.fresh()))
              .compressionLevel(9)
              .dictionary(
                  "a", ZstdDictionary.of(9, Values.json(2000, 1).getBytes(StandardCharsets.UTF_8)))
              .build());

  @Provide
  Arbitrary<AttributePolicy> policies() {
    return Arbitraries.of(
        AttributePolicy.PLAIN,
        AttributePolicy.COMPRESSED,
        AttributePolicy.ENCRYPTED,
        AttributePolicy.COMPRESSED_AND_ENCRYPTED);
  }

  @Provide
  Arbitrary<Integer> configurations() {
    return Arbitraries.integers().between(0, CONFIGURATIONS.size() - 1);
  }

  @Provide
  Arbitrary<AttributeValue> values() {
    return Values.values();
  }

  @Property(tries = 400)
  void decodeInvertsEncode(
      @ForAll("values") AttributeValue value,
      @ForAll("policies") AttributePolicy policy,
      @ForAll("configurations") int configuration) {
    Codecs codecs = CONFIGURATIONS.get(configuration);
    if (policy.encrypted() && codecs.keys().isEmpty()) {
      policy = AttributePolicy.COMPRESSED;
    }
    AttributeValue stored = codecs.encode("orders", KEY, "a", policy, value);
    assertThat(codecs.decode("orders", KEY, "a", policy, stored)).isEqualTo(value);
    // Reading is driven by the envelope: any later policy reads it (plaintext allowed).
    Codecs lenient =
        configuration == 0
            ? Codecs.builder().plaintextPolicy(PlaintextPolicy.ALLOW).build()
            : codecs;
    if (!policy.encrypted() && configuration == 0) {
      assertThat(lenient.decode("orders", KEY, "a", AttributePolicy.PLAIN, stored))
          .isEqualTo(value);
    }
  }

  @Property(tries = 300)
  void plainPolicyStoresEveryValueAsIs(@ForAll("values") AttributeValue value) {
    AttributeValue stored = Codecs.defaults().encode("t", KEY, "a", AttributePolicy.PLAIN, value);
    assertThat(stored).isSameAs(value);
    assertThat(Codecs.defaults().decode("t", KEY, "a", AttributePolicy.PLAIN, stored))
        .isEqualTo(value);
  }

  @Property(tries = 300)
  void compressedPolicyEscapesSmallValuesThatLookLikeEnvelopes(
      @ForAll("values") AttributeValue value) {
    Codecs c = Codecs.builder().minCompressSize(Integer.MAX_VALUE).build();
    AttributeValue stored = c.encode("t", KEY, "a", AttributePolicy.COMPRESSED, value);
    boolean looksLikeEnvelope =
        value instanceof BinaryValue b
            && b.value().size() >= 2
            && b.value().byteAt(0) == (byte) 0xF5
            && b.value().byteAt(1) == 0x53;
    if (looksLikeEnvelope) {
      assertThat(stored).isNotEqualTo(value).isInstanceOf(BinaryValue.class);
    } else {
      assertThat(stored).isSameAs(value);
    }
    assertThat(c.decode("t", KEY, "a", AttributePolicy.COMPRESSED, stored)).isEqualTo(value);
  }

  @Property(tries = 300)
  void plainAttributesReadForeignBinaryThatStartsWithTheMagicAsIs(
      @ForAll byte[] tail, @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 255) int v) {
    // Another tool's binary value: the magic, any version byte, anything after it.
    byte[] raw = new byte[tail.length + 3];
    raw[0] = (byte) 0xF5;
    raw[1] = 0x53;
    raw[2] = (byte) v;
    System.arraycopy(tail, 0, raw, 3, tail.length);
    AttributeValue stored = AttributeValue.of(raw);
    assertThat(Codecs.defaults().decode("t", KEY, "a", AttributePolicy.PLAIN, stored))
        .isEqualTo(stored);
  }

  @Property(tries = 200)
  void encryptedFormNeverContainsTheSerialisedValue(
      @ForAll("values") AttributeValue value, @ForAll("policies") AttributePolicy policy) {
    if (!policy.encrypted()) {
      return;
    }
    Codecs codecs = CONFIGURATIONS.get(1);
    AttributeValue stored = codecs.encode("t", KEY, "a", policy, value);
    assertThat(stored).isInstanceOf(BinaryValue.class);
    byte[] serial = dev.stowage.internal.ValueWire.encode(value);
    if (serial.length >= 8) {
      assertThat(indexOf(((BinaryValue) stored).value().toByteArray(), serial)).isEqualTo(-1);
    }
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
