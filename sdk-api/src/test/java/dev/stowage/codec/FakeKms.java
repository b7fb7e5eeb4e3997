package dev.stowage.codec;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.KmsClient;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local stand-in for a cloud KMS (Tink ships no fake in its main jar): key URIs {@code
 * fake-kms://NAME} map to in-memory AES-256-GCM keys. Counts remote calls so tests can see how
 * often the "KMS" is used.
 */
final class FakeKms implements KmsClient {
  private final Map<String, Aead> keys = new ConcurrentHashMap<>();
  final AtomicInteger calls = new AtomicInteger();

  /** While true, every remote call fails as an unreachable KMS would. */
  volatile boolean down;

  FakeKms() {
    try {
      AeadConfig.register();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean doesSupport(String keyUri) {
    return keyUri != null && keyUri.startsWith("fake-kms://");
  }

  @Override
  public KmsClient withCredentials(String credentialPath) {
    return this;
  }

  @Override
  public KmsClient withDefaultCredentials() {
    return this;
  }

  @Override
  public Aead getAead(String keyUri) throws GeneralSecurityException {
    if (!doesSupport(keyUri)) {
      throw new GeneralSecurityException("unsupported key " + keyUri);
    }
    Aead key =
        keys.computeIfAbsent(
            keyUri,
            u -> {
              try {
                return KeysetHandle.generateNew(
                        PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get())
                    .getPrimitive(RegistryConfiguration.get(), Aead.class);
              } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
              }
            });
    return new Aead() {
      @Override
      public byte[] encrypt(byte[] plaintext, byte[] ad) throws GeneralSecurityException {
        calls.incrementAndGet();
        failIfDown();
        return key.encrypt(plaintext, ad);
      }

      @Override
      public byte[] decrypt(byte[] ciphertext, byte[] ad) throws GeneralSecurityException {
        calls.incrementAndGet();
        failIfDown();
        return key.decrypt(ciphertext, ad);
      }
    };
  }

  private void failIfDown() throws GeneralSecurityException {
    if (down) {
      throw new GeneralSecurityException("connection refused");
    }
  }
}
