package dev.stowage.codec.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A key ring's ciphertexts are Tink's: Tink decrypts what the ring writes and the ring decrypts
 * what Tink writes, wherever the ciphertext lies in a larger array; tampered, foreign and truncated
 * ciphertexts fail, and keysets mixing key types work across a rotation.
 */
class KeyRingTest {
  static {
    KeyRing.register();
  }

  private static final byte[] AD = "associated".getBytes(java.nio.charset.StandardCharsets.UTF_8);

  @Test
  void ciphertextsAreTinkCiphertexts() throws GeneralSecurityException {
    KeysetHandle keyset =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    Aead tink = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
    KeyRing ring = KeyRing.ofKeyset(keyset, "test");
    Random random = new Random(1);
    for (int size : new int[] {0, 1, 15, 16, 17, 100, 8192, 70_000}) {
      byte[] plain = new byte[size];
      random.nextBytes(plain);
      byte[] ct = ring.encrypt(plain, AD);
      assertThat(ct.length).isEqualTo(5 + 12 + size + 16);
      assertThat(tink.decrypt(ct, AD)).isEqualTo(plain);
      assertThat(ring.underPrimary(ct, 0, ct.length)).isTrue();

      byte[] fromTink = tink.encrypt(plain, AD);
      byte[] framed = new byte[fromTink.length + 4];
      System.arraycopy(fromTink, 0, framed, 1, fromTink.length);
      assertThat(ring.decrypt(framed, 1, fromTink.length, AD)).isEqualTo(plain);
      assertThat(ring.decrypt(fromTink, 0, fromTink.length, AD)).isEqualTo(plain);
    }
  }

  @Test
  void tamperedOrForeignCiphertextsFail() throws GeneralSecurityException {
    KeysetHandle keyset =
        KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    KeyRing ring = KeyRing.ofKeyset(keyset, "test");
    byte[] out = ring.encrypt(new byte[100], AD);
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
  void keysetsWithOtherKeyTypesWorkAcrossARotation() throws GeneralSecurityException {
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
    byte[] plain = {1, 2, 3};
    byte[] ct = ring.encrypt(plain, AD);
    assertThat(ring.decrypt(ct, 0, ct.length, AD)).isEqualTo(plain);
    // A value written before the rotation, under the AES-GCM key, still reads.
    KeyRing old = KeyRing.ofKeyset(gcm, "old");
    byte[] before = old.encrypt(plain, AD);
    assertThat(ring.decrypt(before, 0, before.length, AD)).isEqualTo(plain);
    assertThat(ring.underPrimary(before, 0, before.length)).isFalse();
    assertThat(ring.underPrimary(ct, 0, ct.length)).isTrue();
  }
}
