package dev.stowage.codec.internal;

import com.google.crypto.tink.AccessesPartialKey;
import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyStatus;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.AeadKey;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.config.TinkFips;
import com.google.crypto.tink.subtle.Random;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AEAD behind a key provider, with what Stowage needs to know about its keys: the output prefix
 * of every key (to tell a missing key from a wrong one) and of the primary key (to find values that
 * need re-encryption). Thread-safe: Tink primitives are.
 *
 * <p>AES-GCM keys (the default keysets) are also run directly through the JCE cipher, exactly as
 * Tink's {@code AesGcmJce} runs them (12-byte IV, 16-byte tag, output {@code prefix || IV ||
 * ciphertext || tag}), because Tink's {@link Aead} only takes and returns whole arrays: an envelope
 * would have to be split into a fresh ciphertext array to decrypt and joined to its header after
 * encrypting, two copies of every value that cost as much as the encryption itself on values of
 * tens of kilobytes. Ciphertexts are the same bytes either way; any ciphertext the direct path
 * cannot open (no AES-GCM key with its prefix, or a failed tag) goes through Tink's {@link Aead},
 * which decides, so what decrypts is exactly what Tink decrypts.
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
  // Enabled keys with an output prefix, in keyset order; key null for those not AES-GCM.
  private final List<GcmKey> gcmKeys;
  private final GcmKey primaryGcm;
  private final List<byte[]> prefixes;
  private final boolean hasUnprefixedKey;
  private final byte[] primaryPrefix;
  private final Integer primaryKeyId;
  private final String description;
  private final boolean remote;

  private KeyRing(
      Aead aead,
      List<GcmKey> gcmKeys,
      GcmKey primaryGcm,
      List<byte[]> prefixes,
      boolean hasUnprefixedKey,
      byte[] primaryPrefix,
      Integer primaryKeyId,
      String description,
      boolean remote) {
    this.aead = aead;
    this.gcmKeys = gcmKeys;
    this.primaryGcm = primaryGcm;
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
    List<GcmKey> gcmKeys = new ArrayList<>();
    boolean unprefixed = false;
    // In FIPS-only mode Tink decides which AES-GCM implementation may run; leave it all to Tink.
    boolean direct = !TinkFips.useOnlyFips();
    for (int i = 0; i < keyset.size(); i++) {
      if (keyset.getAt(i).getStatus() != KeyStatus.ENABLED) {
        continue; // Tink does not decrypt with disabled keys: for us they are missing.
      }
      byte[] p = prefixOf(keyset.getAt(i).getKey());
      if (direct && p != null && p.length > 0) {
        // Every prefixed key in keyset order, as Tink tries them; keyless entries stop the
        // direct path so that such ciphertexts go to Tink.
        GcmKey g = GcmKey.of(keyset.getAt(i).getKey());
        gcmKeys.add(g != null ? g : new GcmKey(p, null));
      }
      if (p == null || p.length == 0) {
        unprefixed = true;
      } else {
        prefixes.add(p);
      }
    }
    byte[] primary = prefixOf(keyset.getPrimary().getKey());
    return new KeyRing(
        aead,
        List.copyOf(gcmKeys),
        direct ? GcmKey.of(keyset.getPrimary().getKey()) : null,
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
    return new KeyRing(
        aead, List.of(), null, List.of(), true, new byte[0], null, description, true);
  }

  private static byte[] prefixOf(com.google.crypto.tink.Key key) {
    return key instanceof AeadKey k ? k.getOutputPrefix().toByteArray() : null;
  }

  /**
   * Largest plaintext {@link #encryptInto} copies next to its ciphertext to encrypt it in one call;
   * larger ones are encrypted where they lie (the copy would cost more than the extra call).
   */
  static final int IN_PLACE_MAX = 8 * 1024;

  /** Encrypts with the primary key. */
  public byte[] encrypt(byte[] plaintext, byte[] associatedData) throws GeneralSecurityException {
    return aead.encrypt(plaintext, associatedData);
  }

  /**
   * Length of the ciphertext of {@code plaintextLength} bytes if {@link #encryptInto} can write it
   * in place (the primary key is AES-GCM), else -1: then use {@link #encrypt}.
   */
  public int directCiphertextLength(int plaintextLength) {
    if (primaryGcm == null
        || plaintextLength > Integer.MAX_VALUE - 64 - primaryGcm.prefix.length - GcmKey.OVERHEAD) {
      return -1;
    }
    return primaryGcm.prefix.length + GcmKey.OVERHEAD + plaintextLength;
  }

  /**
   * Encrypts {@code head[0, headLength) || body[bodyOffset, bodyOffset + bodyLength)} with the
   * primary key into {@code out} at {@code outOffset}, which must have room for {@link
   * #directCiphertextLength} bytes. The plaintext comes in two parts so that a value's bytes are
   * encrypted where they lie, without first being joined to their serialisation header (at most 16
   * bytes).
   */
  public void encryptInto(
      byte[] head,
      int headLength,
      byte[] body,
      int bodyOffset,
      int bodyLength,
      byte[] associatedData,
      byte[] out,
      int outOffset)
      throws GeneralSecurityException {
    GcmKey k = primaryGcm;
    int pos = outOffset;
    System.arraycopy(k.prefix, 0, out, pos, k.prefix.length);
    pos += k.prefix.length;
    byte[] iv = Random.randBytes(GcmKey.IV_LENGTH);
    System.arraycopy(iv, 0, out, pos, iv.length);
    pos += iv.length;
    Cipher c = GcmKey.cipher();
    c.init(Cipher.ENCRYPT_MODE, k.key, new GCMParameterSpec(GcmKey.TAG_BITS, iv));
    c.updateAAD(associatedData);
    if (headLength > GcmKey.BLOCK) {
      throw new IllegalArgumentException("head longer than a block: " + headLength);
    }
    int n;
    if (headLength == 0) {
      n = c.doFinal(body, bodyOffset, bodyLength, out, pos);
    } else if (headLength + bodyLength <= IN_PLACE_MAX) {
      // A small plaintext is copied to where its ciphertext goes and encrypted there in one call:
      // an update() before doFinal() costs the JDK's GCM more than copying a few kilobytes.
      System.arraycopy(head, 0, out, pos, headLength);
      System.arraycopy(body, bodyOffset, out, pos + headLength, bodyLength);
      n = c.doFinal(out, pos, headLength + bodyLength, out, pos);
    } else {
      // A large value is encrypted where it lies; the head goes in one whole AES block together
      // with the body's first bytes, since an update() of a partial block makes the JDK's GCM
      // buffer it and re-align the rest. Only 16 bytes are copied, whatever the value's size.
      byte[] first = new byte[GcmKey.BLOCK];
      System.arraycopy(head, 0, first, 0, headLength);
      int taken = GcmKey.BLOCK - headLength;
      System.arraycopy(body, bodyOffset, first, headLength, taken);
      n = c.update(first, 0, GcmKey.BLOCK, out, pos);
      n += c.doFinal(body, bodyOffset + taken, bodyLength - taken, out, pos + n);
    }
    if (n != headLength + bodyLength + GcmKey.TAG_LENGTH) {
      throw new GeneralSecurityException("AES-GCM wrote " + n + " bytes, expected more");
    }
  }

  /** Decrypts with whichever key the ciphertext names. */
  public byte[] decrypt(byte[] ciphertext, byte[] associatedData) throws GeneralSecurityException {
    return aead.decrypt(ciphertext, associatedData);
  }

  /**
   * Decrypts the ciphertext {@code b[offset, offset + length)} with whichever key it names, as
   * {@link #decrypt} would, without copying it out first when an AES-GCM key's prefix matches.
   */
  public byte[] decrypt(byte[] b, int offset, int length, byte[] associatedData)
      throws GeneralSecurityException {
    for (GcmKey k : gcmKeys) {
      int p = k.prefix.length;
      if (length >= p && Arrays.equals(b, offset, offset + p, k.prefix, 0, p)) {
        // Tink tries this key first too; only an AES-GCM key of standard sizes runs here.
        if (k.key == null || length < p + GcmKey.OVERHEAD) {
          break;
        }
        Cipher c = GcmKey.cipher();
        c.init(
            Cipher.DECRYPT_MODE,
            k.key,
            new GCMParameterSpec(GcmKey.TAG_BITS, b, offset + p, GcmKey.IV_LENGTH));
        c.updateAAD(associatedData);
        int start = offset + p + GcmKey.IV_LENGTH;
        int n = length - p - GcmKey.IV_LENGTH;
        byte[] out = new byte[n - GcmKey.TAG_LENGTH];
        try {
          if (c.doFinal(b, start, n, out, 0) == out.length) {
            return out;
          }
        } catch (GeneralSecurityException e) {
          // Not this key (or tampered): Tink below tries every candidate and decides.
        }
        break;
      }
    }
    return aead.decrypt(Arrays.copyOfRange(b, offset, offset + length), associatedData);
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

  /**
   * An enabled key of the keyset by output prefix, with its JCE key if it is AES-GCM with Tink's
   * standard sizes (null otherwise).
   */
  private static final class GcmKey {
    static final int BLOCK = 16;
    static final int IV_LENGTH = 12;
    static final int TAG_LENGTH = 16;
    static final int TAG_BITS = 8 * TAG_LENGTH;
    static final int OVERHEAD = IV_LENGTH + TAG_LENGTH;

    // One cipher per thread, as Tink keeps: Cipher.getInstance costs more than a small value's
    // encryption, and a Cipher is not thread-safe.
    private static final ThreadLocal<Cipher> CIPHER =
        ThreadLocal.withInitial(
            () -> {
              try {
                return Cipher.getInstance("AES/GCM/NoPadding");
              } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AES/GCM/NoPadding is not available", e);
              }
            });

    final byte[] prefix;
    final SecretKeySpec key;

    private GcmKey(byte[] prefix, SecretKeySpec key) {
      this.prefix = prefix;
      this.key = key;
    }

    /**
     * The key if it is AES-GCM with a 12-byte IV and 16-byte tag (what Tink's AesGcmJce runs), else
     * null.
     */
    @AccessesPartialKey
    static GcmKey of(com.google.crypto.tink.Key key) {
      if (!(key instanceof AesGcmKey k)
          || k.getParameters().getIvSizeBytes() != IV_LENGTH
          || k.getParameters().getTagSizeBytes() != TAG_LENGTH) {
        return null;
      }
      byte[] material = k.getKeyBytes().toByteArray(InsecureSecretKeyAccess.get());
      return new GcmKey(k.getOutputPrefix().toByteArray(), new SecretKeySpec(material, "AES"));
    }

    static Cipher cipher() {
      return CIPHER.get();
    }
  }
}
