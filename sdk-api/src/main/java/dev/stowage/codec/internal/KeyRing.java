package dev.stowage.codec.internal;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AeadKey;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The AEAD behind a key provider, with what Stowage needs to know about its keys: the output prefix
 * of every key (to tell a missing key from a wrong one) and of the primary key (to find values that
 * need re-encryption). Every encryption and decryption goes through Tink's {@link Aead}: key
 * material never leaves Tink. Thread-safe: Tink primitives are.
 */
public final class KeyRing {
  static {
    try {
      AeadConfig.register();
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Registers Tink's AEAD key types (idempotent). Keysets must be parsed after this, or their keys
   * are not recognised as AEAD keys.
   */
  public static void register() {
    // The static initialiser does the work; calling this runs it.
  }

  private final Aead aead;
  private final List<byte[]> prefixes;
  private final boolean hasUnprefixedKey;
  private final byte[] primaryPrefix;
  private final Integer primaryKeyId;
  private final String description;
  private final boolean remote;

  private KeyRing(
      Aead aead,
      List<byte[]> prefixes,
      boolean hasUnprefixedKey,
      byte[] primaryPrefix,
      Integer primaryKeyId,
      String description,
      boolean remote) {
    this.aead = aead;
    this.remote = remote;
    this.prefixes = prefixes;
    this.hasUnprefixedKey = hasUnprefixedKey;
    this.primaryPrefix = primaryPrefix;
    this.primaryKeyId = primaryKeyId;
    this.description = description;
  }

  /**
   * A key ring over a Tink AEAD keyset.
   *
   * @throws GeneralSecurityException if the keyset holds no usable AEAD primary key
   */
  public static KeyRing ofKeyset(KeysetHandle keyset, String description)
      throws GeneralSecurityException {
    Aead aead = keyset.getPrimitive(RegistryConfiguration.get(), Aead.class);
    List<byte[]> prefixes = new ArrayList<>();
    boolean unprefixed = false;
    for (int i = 0; i < keyset.size(); i++) {
      if (keyset.getAt(i).getStatus() != KeyStatus.ENABLED) {
        continue; // Tink does not decrypt with disabled keys: for us they are missing.
      }
      byte[] p = prefixOf(keyset.getAt(i).getKey());
      if (p == null || p.length == 0) {
        unprefixed = true;
      } else {
        prefixes.add(p);
      }
    }
    byte[] primary = prefixOf(keyset.getPrimary().getKey());
    return new KeyRing(
        aead,
        List.copyOf(prefixes),
        unprefixed,
        primary == null ? new byte[0] : primary,
        keyset.getPrimary().getId(),
        description,
        false);
  }

  /**
   * A key ring over an AEAD whose ciphertexts carry no Tink key id (KMS envelope encryption: the
   * remote KMS resolves its own key versions). Such values never need re-encryption by Stowage.
   */
  public static KeyRing ofOpaqueAead(Aead aead, String description) {
    return new KeyRing(aead, List.of(), true, new byte[0], null, description, true);
  }

  private static byte[] prefixOf(com.google.crypto.tink.Key key) {
    return key instanceof AeadKey k ? k.getOutputPrefix().toByteArray() : null;
  }

  /** Encrypts with the primary key. */
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return aead.encrypt(plaintext, associatedData);
  }

  /** Decrypts with whichever key the ciphertext names. */
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    return aead.decrypt(ciphertext, associatedData);
  }

  /**
   * Decrypts the ciphertext {@code b[offset, offset + length)} with whichever key it names. Tink's
   * {@link Aead} takes whole arrays only, so the ciphertext is copied out of the envelope that
   * holds it.
   */
  public byte[] decrypt(byte[] b, int offset, int length, byte[] associatedData)
      throws GeneralSecurityException {
    byte[] ciphertext =
        offset == 0 && length == b.length ? b : Arrays.copyOfRange(b, offset, offset + length);
    return aead.decrypt(ciphertext, associatedData);
  }

  /**
   * True if the ciphertext {@code b[offset, end)} names a Tink key that this ring does not hold (a
   * removed or never-configured key, as opposed to a wrong or tampered ciphertext).
   */
  public boolean keyIsMissing(byte[] b, int offset, int end) {
    if (hasUnprefixedKey) {
      return false;
    }
    for (byte[] p : prefixes) {
      if (startsWith(b, offset, end, p)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True if the ciphertext at {@code offset} was made by the primary key. Always true for rings
   * whose primary key writes no key id.
   */
  public boolean underPrimary(byte[] b, int offset, int end) {
    return startsWith(b, offset, end, primaryPrefix);
  }

  /** The Tink key id of the primary key, empty for KMS envelope rings. */
  public Optional<Integer> primaryKeyId() {
    return Optional.ofNullable(primaryKeyId);
  }

  /**
   * The Tink key id named by a ciphertext {@code b[offset, end)} (5-byte Tink or legacy prefix), or
   * empty if it has no such prefix.
   */
  public static Optional<Integer> keyIdOf(byte[] b, int offset, int end) {
    if (end - offset < 5 || (b[offset] != 0x01 && b[offset] != 0x00)) {
      return Optional.empty();
    }
    int id =
        ((b[offset + 1] & 0xFF) << 24)
            | ((b[offset + 2] & 0xFF) << 16)
            | ((b[offset + 3] & 0xFF) << 8)
            | (b[offset + 4] & 0xFF);
    return Optional.of(id);
  }

  /** True if every operation calls a remote KMS, which may be unreachable. */
  public boolean remote() {
    return remote;
  }

  /** What the keys are, for messages (never key material). */
  public String description() {
    return description;
  }

  private static boolean startsWith(byte[] b, int offset, int end, byte[] prefix) {
    return end - offset >= prefix.length
        && Arrays.equals(b, offset, offset + prefix.length, prefix, 0, prefix.length);
  }
}
