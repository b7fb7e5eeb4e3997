package dev.stowage.internal;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AeadKey;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.internal.KeyRing;
import dev.stowage.codec.internal.KeyRings;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The keys that seal cursors, and which of them a store holds. In order of precedence:
 *
 * <ol>
 *   <li>a cursor keyset the application gave ({@code Stowage.Builder.cursorKeys}), or an opaque
 *       cursor AEAD ({@code cursorAead});
 *   <li>the store's codec keyset ({@code Codecs.Builder.keys}) when it is a Tink keyset held in the
 *       process: its own AEAD primitive, under the cursor associated data, so every instance
 *       configured with the same keyset opens every other's cursors and no key material leaves Tink
 *       (a KMS envelope provider would call the KMS for every cursor and is not used);
 *   <li>otherwise a random AES-256-GCM key generated once per process.
 * </ol>
 *
 * <p>All but the opaque AEAD are Tink keysets whose ciphertexts start with the Tink output prefix
 * ({@code 01} and a 4-byte key id), so a cursor sealed under a key this store does not hold is told
 * apart from an altered one. Thread-safe.
 */
public final class CursorKeys {
  private final Aead aead;
  // The Tink output prefixes of the keys held; null when they cannot be known (an opaque AEAD, or
  // a keyset with keys that write no prefix).
  private final List<byte[]> prefixes;
  private final KeyRing ring;
  private final String description;

  private CursorKeys(Aead aead, List<byte[]> prefixes, KeyRing ring, String description) {
    this.aead = aead;
    this.prefixes = prefixes;
    this.ring = ring;
    this.description = description;
  }

  /**
   * The cursor keys of a store.
   *
   * @param keyset the application's cursor keyset, or null
   * @param opaque the application's cursor AEAD, or null (ignored when {@code keyset} is given)
   * @param codecs the store's codecs, or null
   */
  public static CursorKeys choose(KeysetHandle keyset, Aead opaque, Codecs codecs) {
    if (keyset != null) {
      return ofKeyset(keyset, "the cursor keyset given to Stowage.Builder.cursorKeys");
    }
    if (opaque != null) {
      return new CursorKeys(opaque, null, null, "the AEAD given to Stowage.Builder.cursorAead");
    }
    if (codecs != null && codecs.keys().isPresent()) {
      KeyRing ring = KeyRings.of(codecs.keys().get());
      if (!ring.remote()) {
        return new CursorKeys(
            null, null, ring, "the store's codec keyset (" + ring.description() + ")");
      }
    }
    return PerProcess.KEYS;
  }

  /** Cursor keys over a Tink AEAD keyset. @throws IllegalArgumentException if it is not one */
  public static CursorKeys ofKeyset(KeysetHandle keyset, String description) {
    try {
      AeadConfig.register();
      Aead aead = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
      List<byte[]> prefixes = new ArrayList<>();
      for (int i = 0; i < keyset.size(); i++) {
        if (keyset.getAt(i).getStatus() != KeyStatus.ENABLED) {
          continue; // Tink does not decrypt with disabled keys: for us they are missing.
        }
        byte[] p =
            keyset.getAt(i).getKey() instanceof AeadKey k
                ? k.getOutputPrefix().toByteArray()
                : new byte[0];
        if (p.length == 0) {
          prefixes = null; // a key without a key id: any ciphertext may be its
          break;
        }
        prefixes.add(p);
      }
      return new CursorKeys(
          aead, prefixes == null ? null : List.copyOf(prefixes), null, description);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "the cursor keyset is not a usable Tink AEAD keyset: " + e.getMessage(), e);
    }
  }

  /** Encrypts with the primary key. */
  byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return ring != null
        ? ring.encrypt(plaintext, associatedData)
        : aead.encrypt(plaintext, associatedData);
  }

  /** Decrypts with whichever key the ciphertext names. */
  byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    return ring != null
        ? ring.decrypt(ciphertext, associatedData)
        : aead.decrypt(ciphertext, associatedData);
  }

  /**
   * The key id a ciphertext names if it names one in a Tink output prefix and these keys do not
   * hold it; empty if the key is held, if the ciphertext names no key, or if this cannot be known.
   */
  Optional<Integer> unknownKeyId(byte[] ciphertext) {
    Optional<Integer> id = KeyRing.keyIdOf(ciphertext, 0, ciphertext.length);
    if (id.isEmpty()) {
      return Optional.empty();
    }
    if (ring != null) {
      return ring.keyIsMissing(ciphertext, 0, ciphertext.length) ? id : Optional.empty();
    }
    if (prefixes == null) {
      return Optional.empty();
    }
    for (byte[] p : prefixes) {
      if (ciphertext.length >= p.length && Arrays.equals(ciphertext, 0, p.length, p, 0, p.length)) {
        return Optional.empty();
      }
    }
    return id;
  }

  /** Where these keys come from, for messages (never key material). */
  String description() {
    return description;
  }

  /** True for the key generated for this process (nothing was configured). */
  boolean perProcess() {
    return this == PerProcess.KEYS;
  }

  /** The key generated once per process, used when no key is configured. */
  private static final class PerProcess {
    static final CursorKeys KEYS = create();

    private static CursorKeys create() {
      try {
        AeadConfig.register();
        return ofKeyset(
            KeysetHandle.generateNew(
                PredefinedAeadParameters.AES256_GCM, RegistryConfiguration.get()),
            "a random key generated for this process, because no cursor keyset and no codec"
                + " keyset are configured");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("cannot create a cursor key", e);
      }
    }
  }
}
