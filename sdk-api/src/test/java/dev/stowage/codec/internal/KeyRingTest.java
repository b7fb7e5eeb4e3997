package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct AES-GCM path writes and reads exactly Tink's ciphertexts: Tink decrypts what it writes
 * and it decrypts what Tink writes, at every split of the plaintext into head and body, and keysets
 * it cannot run directly still work through Tink.
 */
class KeyRingTest {
  static {
    KeyRing.register();
  }

  private static final byte[] AD = "associated".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  @Test
  void directCiphertextsAreTinkCiphertexts() throws GeneralSecurityException {
    KeysetHandle keyset =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    Aead tink = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
    KeyRing ring = KeyRing.ofKeyset(keyset, "test");
    Random random = new Random(1);
    for (int size :
        new int[] {
          0, 1, 9, 10, 15, 16, 17, 31, 32, 33, 100, 4096, 8186, 8187, 8191, 8192, 8193, 70_000
        }) {
      for (int headLength : new int[] {0, 1, 2, 6}) {
        byte[] plain = new byte[headLength + size];
        random.nextBytes(plain);
        byte[] head = Arrays.copyOf(plain, Serial.MAX_HEAD);
        byte[] body = new byte[size + 7];
        System.arraycopy(plain, headLength, body, 3, size);
        int n = ring.directCiphertextLength(plain.length);
        assertThat(n).isEqualTo(5 + 12 + plain.length + 16);
        byte[] out = new byte[2 + n];
        ring.encryptInto(head, headLength, body, 3, size, AD, out, 2);
        byte[] ct = Arrays.copyOfRange(out, 2, out.length);
        assertThat(tink.decrypt(ct, AD)).isEqualTo(plain);
        assertThat(ring.decrypt(out, 2, n, AD)).isEqualTo(plain);

        byte[] fromTink = tink.encrypt(plain, AD);
        byte[] framed = new byte[fromTink.length + 4];
        System.arraycopy(fromTink, 0, framed, 1, fromTink.length);
        assertThat(ring.decrypt(framed, 1, fromTink.length, AD)).isEqualTo(plain);
      }
    }
  }

  @Test
  void tamperedOrForeignCiphertextsFail() throws GeneralSecurityException {
    KeysetHandle keyset =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    KeyRing ring = KeyRing.ofKeyset(keyset, "test");
    byte[] plain = new byte[100];
    byte[] out = new byte[ring.directCiphertextLength(plain.length)];
    ring.encryptInto(new byte[0], 0, plain, 0, plain.length, AD, out, 0);
    for (int i = 0; i < out.length; i++) {
      byte[] bad = out.clone();
      bad[i] ^= 1;
      assertThatThrownBy(() -> ring.decrypt(bad, 0, bad.length, AD))
          .isInstanceOf(GeneralSecurityException.class);
    }
    assertThatThrownBy(() -> ring.decrypt(out, 0, out.length, "other".getBytes()))
        .isInstanceOf(GeneralSecurityException.class);
    assertThatThrownBy(() -> ring.decrypt(out, 0, 20, AD))
        .isInstanceOf(GeneralSecurityException.class);
    KeyRing other =
        KeyRing.ofKeyset(
            KeysetHandle.generateNew(
                PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get()),
            "other");
    assertThatThrownBy(() -> other.decrypt(out, 0, out.length, AD))
        .isInstanceOf(GeneralSecurityException.class);
    assertThat(other.keyIsMissing(out, 0, out.length)).isTrue();
    assertThat(ring.keyIsMissing(out, 0, out.length)).isFalse();
  }

  @Test
  void keysetsWithOtherKeyTypesGoThroughTink() throws GeneralSecurityException {
    KeysetHandle gcm =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    KeysetHandle mixed =
        KeysetHandle.newBuilder(gcm)
            .addEntry(
                KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.CHACHA20_POLY1305)
                    .withRandomId()
                    .makePrimary())
            .build();
    KeyRing ring = KeyRing.ofKeyset(mixed, "mixed");
    assertThat(ring.directCiphertextLength(10)).isEqualTo(-1);
    byte[] plain = {1, 2, 3};
    byte[] ct = ring.encrypt(plain, AD);
    assertThat(ring.decrypt(ct, 0, ct.length, AD)).isEqualTo(plain);
    // A value written before the rotation, under the AES-GCM key, still reads directly.
    KeyRing old = KeyRing.ofKeyset(gcm, "old");
    byte[] before = new byte[old.directCiphertextLength(plain.length)];
    old.encryptInto(new byte[0], 0, plain, 0, plain.length, AD, before, 0);
    assertThat(ring.decrypt(before, 0, before.length, AD)).isEqualTo(plain);
  }
}
