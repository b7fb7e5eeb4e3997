package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import dev.stowage.AttributePolicy;
import dev.stowage.IntegrityException;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.codec.PlaintextPolicy;
import dev.stowage.codec.TestKeys;
import dev.stowage.internal.BytesAccess;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.AttributeValue.BinaryValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Key;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The payload kinds of encrypted envelopes (docs/FORMAT.md, flags bits 3-4): which values take
 * them, that a reader accepts them only where they are defined, and that they are bound like every
 * other header byte.
 */
class PayloadKindTest {
  private static final Key KEY = Key.of("customer#1", "order#2");
  private static final KeysetHandle KEYSET = TestKeys.fresh();
  private static final Aead AEAD = TestKeys.aead(KEYSET);

  private static final Codecs CODECS =
      Codecs.builder()
          .keys(KeyProvider.ofKeyset(KEYSET))
          .plaintextPolicy(PlaintextPolicy.ALLOW)
          .build();

  @Test
  void binaryValuesAndStringsAreEncryptedAsTheirOwnBytes() throws Exception {
    byte[] bytes = {(byte) 0xF5, 0x53, 0x01, 0x0A, 0, 1, 2};
    byte[] binary = envelope(AttributePolicy.ENCRYPTED, AttributeValue.of(bytes));
    assertThat(binary[3]).isEqualTo((byte) 0x0A);
    assertThat(tinkPlaintext(binary)).isEqualTo(bytes);

    byte[] string = envelope(AttributePolicy.ENCRYPTED, AttributeValue.of("héllo ✓"));
    assertThat(string[3]).isEqualTo((byte) 0x12);
    assertThat(tinkPlaintext(string)).isEqualTo("héllo ✓".getBytes(StandardCharsets.UTF_8));

    byte[] number = envelope(AttributePolicy.ENCRYPTED, AttributeValue.of(42));
    assertThat(number[3]).isEqualTo((byte) 0x02);

    // Compression that does not pay leaves the value encrypted as its own bytes.
    byte[] small = envelope(AttributePolicy.COMPRESSED_AND_ENCRYPTED, AttributeValue.of(bytes));
    assertThat(small[3]).isEqualTo((byte) 0x0A);
    byte[] compressed =
        envelope(AttributePolicy.COMPRESSED_AND_ENCRYPTED, AttributeValue.of("a".repeat(1000)));
    assertThat(compressed[3]).isEqualTo((byte) 0x03);
  }

  @Test
  void aBinaryValueViewingPartOfAnArrayEncryptsOnlyItsBytes() throws Exception {
    byte[] backing = {9, 9, 1, 2, 3, 9};
    AttributeValue view = AttributeValue.of(BytesAccess.wrap(backing, 2, 3));
    byte[] e = envelope(AttributePolicy.ENCRYPTED, view);
    assertThat(tinkPlaintext(e)).containsExactly(1, 2, 3);
    assertThat(decode(e)).isEqualTo(AttributeValue.of(new byte[] {1, 2, 3}));
    assertThat(backing).containsExactly(9, 9, 1, 2, 3, 9);
  }

  @Test
  void decodedValuesRoundTripAndReencryptUnchanged() {
    for (AttributeValue v :
        new AttributeValue[] {
          AttributeValue.of(new byte[0]),
          AttributeValue.of(new byte[70_000]),
          AttributeValue.of(""),
          AttributeValue.of("\uFFFD and \uD83D\uDE00"),
          AttributeValue.of("z".repeat(70_000))
        }) {
      AttributeValue decoded = decode(envelope(AttributePolicy.ENCRYPTED, v));
      assertThat(decoded).isEqualTo(v);
      assertThat(decode(envelope(AttributePolicy.ENCRYPTED, decoded))).isEqualTo(v);
      // A decoded binary value fills Tink's plaintext array: encrypting it again copies nothing.
      if (decoded instanceof BinaryValue b) {
        Bytes bytes = b.value();
        assertThat(BytesAccess.offset(bytes)).isZero();
        assertThat(BytesAccess.array(bytes)).hasSize(bytes.size());
        Serial.Split split = Serial.split(decoded);
        assertThat(Serial.body(split)).isSameAs(BytesAccess.array(bytes));
      }
    }
  }

  @Test
  void thePayloadKindIsBound() {
    byte[] e = envelope(AttributePolicy.ENCRYPTED, AttributeValue.of(new byte[] {1, 2, 3}));
    for (int flags : new int[] {0x02, 0x12}) {
      byte[] forged = e.clone();
      forged[3] = (byte) flags;
      assertThatThrownBy(() -> decode(forged))
          .isInstanceOf(IntegrityException.class)
          .hasMessageContaining("decryption failed");
    }
  }

  @Test
  void aPayloadKindIsRefusedWhereItIsNotDefined() throws Exception {
    // Both kind bits, on an encrypted envelope with a genuine ciphertext under its own header.
    assertThatThrownBy(() -> decode(sealedByHand(0x1A, new byte[] {1})))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("unknown envelope payload kind");
    // A kind on a compressed and encrypted envelope.
    assertThatThrownBy(() -> decode(sealedByHand(0x0B, new byte[] {1})))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("payload kind");
    // A kind on an envelope that is not encrypted, behind a valid checksum.
    for (int flags : new int[] {0x08, 0x10, 0x09}) {
      byte[] b = new byte[Envelope.FIXED_HEADER + 2 + Envelope.CRC_LENGTH];
      Envelope.writeHeader(b, flags, 0);
      b[4] = 0x03;
      b[5] = 0x00;
      Envelope.writeCrc(b, 6);
      assertThatThrownBy(() -> decode(b))
          .isInstanceOf(IntegrityException.class)
          .hasMessageContaining("payload kind");
    }
  }

  @Test
  void aStringPayloadMustBeWellFormedUtf8() throws Exception {
    for (byte[] bad :
        new byte[][] {
          {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {0x41, (byte) 0x80}
        }) {
      byte[] e = sealedByHand(0x12, bad);
      assertThatThrownBy(() -> decode(e))
          .isInstanceOf(IntegrityException.class)
          .hasMessageContaining("invalid UTF-8");
    }
    byte[] replacement = "\uFFFD".getBytes(StandardCharsets.UTF_8);
    assertThat(decode(sealedByHand(0x12, replacement))).isEqualTo(AttributeValue.of("\uFFFD"));
    // Any bytes are a binary value, the serialisation of a string included.
    assertThat(decode(sealedByHand(0x0A, new byte[] {0x01, 0x01, 0x41})))
        .isEqualTo(AttributeValue.of(new byte[] {0x01, 0x01, 0x41}));
  }

  @Test
  void serialUtf8ChecksStrictly() {
    assertThat(Serial.utf8("a\uFFFDb".getBytes(StandardCharsets.UTF_8))).isEqualTo("a\uFFFDb");
    assertThat(Serial.utf8(new byte[0])).isEmpty();
    assertThatThrownBy(() -> Serial.utf8(new byte[] {(byte) 0xC0, (byte) 0x80}))
        .isInstanceOf(dev.stowage.internal.ValueWire.MalformedException.class);
  }

  /** An encrypted envelope with the given flags around Tink's ciphertext of {@code payload}. */
  private static byte[] sealedByHand(int flags, byte[] payload) throws GeneralSecurityException {
    byte[] header = new byte[Envelope.FIXED_HEADER];
    header[0] = Envelope.MAGIC_0;
    header[1] = Envelope.MAGIC_1;
    header[2] = Envelope.VERSION_1;
    header[3] = (byte) flags;
    byte[] ct = AEAD.encrypt(payload, Binding.forRead(header, 0, header.length, "t", KEY, "a"));
    byte[] b = Arrays.copyOf(header, header.length + ct.length);
    System.arraycopy(ct, 0, b, header.length, ct.length);
    return b;
  }

  private static byte[] tinkPlaintext(byte[] envelope) throws GeneralSecurityException {
    int h = Envelope.FIXED_HEADER;
    return AEAD.decrypt(
        Arrays.copyOfRange(envelope, h, envelope.length),
        Binding.forRead(envelope, 0, h, "t", KEY, "a"));
  }

  private static byte[] envelope(AttributePolicy policy, AttributeValue v) {
    return ((BinaryValue) CODECS.encode("t", KEY, "a", policy, v)).value().toByteArray();
  }

  private static AttributeValue decode(byte[] envelope) {
    return CODECS.decode("t", KEY, "a", AttributePolicy.ENCRYPTED, AttributeValue.of(envelope));
  }
}
