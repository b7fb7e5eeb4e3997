package dev.stowage.codec;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/** Keysets for tests: the fixed golden-vector keyset and freshly generated ones. */
public final class TestKeys {
  static {
    try {
      AeadConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private TestKeys() {}

  /** The fixed keyset of the golden vectors (src/test/resources/codec/test-keyset.json). */
  static String fixedKeysetJson() {
    return resourceText("/codec/test-keyset.json");
  }

  static KeysetHandle fixedKeyset() {
    return parse(fixedKeysetJson());
  }

  static String resourceText(String name) {
    try (InputStream in = TestKeys.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static KeysetHandle parse(String json) {
    try {
      return TinkJsonProtoKeysetFormat.parseKeyset(
          json, RegistryConfiguration.get(), InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String json(KeysetHandle h) {
    try {
      return TinkJsonProtoKeysetFormat.serializeKeyset(
          h, RegistryConfiguration.get(), InsecureSecretKeyAccess.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A new keyset with one AES-256-GCM key. */
  public static KeysetHandle fresh() {
    try {
      return KeysetHandle.generateNew(
          PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Tink's {@code Aead} of {@code keyset}, to make or read ciphertexts beside Stowage's. */
  public static com.google.crypto.tink.Aead aead(KeysetHandle keyset) {
    try {
      return keyset.getPrimitive(RegistryConfiguration.get(), com.google.crypto.tink.Aead.class);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code old} plus a new AES-256-GCM key that becomes primary (the old keys still decrypt). */
  static KeysetHandle rotate(KeysetHandle old) {
    try {
      return KeysetHandle.newBuilder(old)
          .addEntry(
              KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
                  .withRandomId()
                  .makePrimary())
          .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code keyset} without its non-primary keys (the old keys removed after re-encryption). */
  static KeysetHandle primaryOnly(KeysetHandle keyset) {
    try {
      KeysetHandle.Builder b = KeysetHandle.newBuilder(keyset);
      for (int i = b.size() - 1; i >= 0; i--) {
        if (!b.getAt(i).isPrimary()) {
          b.deleteAt(i);
        }
      }
      return b.build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static Codecs codecs(KeysetHandle keyset) {
    return Codecs.builder().keys(KeyProvider.ofKeyset(keyset)).build();
  }
}
