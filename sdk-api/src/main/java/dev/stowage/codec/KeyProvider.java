package dev.stowage.codec;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.KmsClient;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.TinkProtoKeysetFormat;
import com.google.crypto.tink.aead.KmsEnvelopeAead;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.InvalidRequestException;
import dev.stowage.codec.internal.KeyRing;
import dev.stowage.codec.internal.KeyRings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the keys for encrypted attributes come from: a Tink AEAD keyset (AES-256-GCM by default,
 * {@link PredefinedAeadParameters#AES256_GCM}), or a key in a cloud KMS.
 *
 * <ul>
 *   <li>{@link #ofKmsEncryptedKeyset} — production: a keyset stored encrypted under a KMS key (AWS
 *       KMS through {@code tink-awskms}'s {@code AwsKmsClient}, Google Cloud KMS through {@code
 *       tink-gcpkms}'s {@code GcpKmsClient}). The KMS is called once, at construction; values are
 *       then encrypted locally and carry the Tink key id, so rotation works.
 *   <li>{@link #ofKmsEnvelope} — envelope encryption per value: every value gets a fresh data key
 *       wrapped by the KMS key, so every read and write calls the KMS. For low volumes where no
 *       keyset may exist outside the KMS; key rotation is the KMS's own.
 *   <li>{@link #ofKeyset}, {@link #ofCleartextJsonKeyset}, {@link #ofCleartextJsonKeysetFile} —
 *       development and tests.
 * </ul>
 *
 * <p><b>Rotation.</b> Add a new key to the keyset and make it primary: new writes use it, values
 * under the older keys still decrypt as long as those keys stay in the keyset. {@link
 * Codecs#needsReencryption} finds values not under the primary key so a re-encryption job can
 * rewrite them; only then remove the old key (a value under a removed key fails to read with an
 * {@link dev.stowage.IntegrityException} naming the missing key id).
 *
 * <p>Immutable and thread-safe. Factories throw {@link InvalidRequestException} (with the Tink or
 * I/O cause) for unreadable or non-AEAD keysets and {@link NullPointerException} for null
 * arguments. Key material never appears in messages or {@link #toString()}.
 */
public final class KeyProvider {
  static {
    KeyRing.register();
    KeyRings.install(p -> p.ring);
  }

  private final KeyRing ring;

  private KeyProvider(KeyRing ring) {
    this.ring = ring;
  }

  /** An AEAD keyset already in memory. */
  public static KeyProvider ofKeyset(KeysetHandle keyset) {
    Objects.requireNonNull(keyset, "keyset");
    return fromKeyset(keyset, "the keyset (" + keyset.size() + " keys)");
  }

  /**
   * A keyset in Tink's cleartext JSON format, as written by {@code tinkey create-keyset
   * --key-template AES256_GCM --out-format json}. The key material is unprotected: development and
   * tests only.
   */
  public static KeyProvider ofCleartextJsonKeyset(String json) {
    Objects.requireNonNull(json, "json");
    try {
      KeysetHandle h =
          TinkJsonProtoKeysetFormat.parseKeyset(
              json, RegistryConfiguration.get(), InsecureSecretKeyAccess.get());
      return fromKeyset(h, "the cleartext keyset (" + h.size() + " keys)");
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException("not a valid Tink JSON keyset: " + e.getMessage(), e);
    }
  }

  /** A cleartext JSON keyset file (see {@link #ofCleartextJsonKeyset}). */
  public static KeyProvider ofCleartextJsonKeysetFile(Path file) {
    Objects.requireNonNull(file, "file");
    String json;
    try {
      json = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InvalidRequestException("cannot read keyset file " + file + ": " + e, e);
    }
    try {
      KeysetHandle h =
          TinkJsonProtoKeysetFormat.parseKeyset(
              json, RegistryConfiguration.get(), InsecureSecretKeyAccess.get());
      return fromKeyset(h, "keyset file " + file.getFileName() + " (" + h.size() + " keys)");
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException(
          "keyset file " + file + " is not a valid Tink JSON keyset: " + e.getMessage(), e);
    }
  }

  /**
   * A keyset in Tink's binary format, encrypted with {@code keyEncryptionKey} (see {@link
   * TinkProtoKeysetFormat#serializeEncryptedKeyset}).
   *
   * @param associatedData the associated data the keyset was encrypted with (empty if none)
   */
  public static KeyProvider ofEncryptedKeyset(
      byte[] encryptedKeyset, Aead keyEncryptionKey, byte[] associatedData) {
    Objects.requireNonNull(encryptedKeyset, "encryptedKeyset");
    Objects.requireNonNull(keyEncryptionKey, "keyEncryptionKey");
    Objects.requireNonNull(associatedData, "associatedData");
    return decryptKeyset(encryptedKeyset, keyEncryptionKey, associatedData, "the encrypted keyset");
  }

  /**
   * A keyset in Tink's binary format, encrypted under a KMS key, with empty associated data (as
   * {@code tinkey create-keyset --master-key-uri ...} writes it). The KMS is called once here.
   *
   * @param kms a Tink KMS client, e.g. {@code new AwsKmsClient()} or {@code new GcpKmsClient()}
   *     configured with credentials
   * @param keyUri the KMS key, e.g. {@code aws-kms://arn:aws:kms:...} or {@code
   *     gcp-kms://projects/.../cryptoKeys/...}
   */
  public static KeyProvider ofKmsEncryptedKeyset(
      KmsClient kms, String keyUri, byte[] encryptedKeyset) {
    Objects.requireNonNull(encryptedKeyset, "encryptedKeyset");
    return decryptKeyset(
        encryptedKeyset, remoteAead(kms, keyUri), new byte[0], "the keyset wrapped by " + keyUri);
  }

  /**
   * Envelope encryption per value under a KMS key: each value is encrypted with a fresh AES-256-GCM
   * data key, itself encrypted by the KMS (Tink's {@link KmsEnvelopeAead}). Every encrypt and
   * decrypt calls the KMS; a KMS failure while reading surfaces as an integrity error.
   */
  public static KeyProvider ofKmsEnvelope(KmsClient kms, String keyUri) {
    Aead remote = remoteAead(kms, keyUri);
    try {
      Aead envelope = KmsEnvelopeAead.create(PredefinedAeadParameters.AES256_GCM, remote);
      return new KeyProvider(KeyRing.ofOpaqueAead(envelope, "KMS envelope key " + keyUri));
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException("cannot set up KMS envelope encryption: " + e, e);
    }
  }

  /** The Tink key id that encrypts new values, empty for {@link #ofKmsEnvelope} providers. */
  public Optional<Integer> primaryKeyId() {
    return ring.primaryKeyId();
  }

  KeyRing ring() {
    return ring;
  }

  @Override
  public String toString() {
    return "KeyProvider[" + ring.description() + "]";
  }

  private static Aead remoteAead(KmsClient kms, String keyUri) {
    Objects.requireNonNull(kms, "kms");
    Objects.requireNonNull(keyUri, "keyUri");
    if (!kms.doesSupport(keyUri)) {
      throw new InvalidRequestException("the KMS client does not support key " + keyUri);
    }
    try {
      return kms.getAead(keyUri);
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException("cannot use KMS key " + keyUri + ": " + e, e);
    }
  }

  private static KeyProvider decryptKeyset(
      byte[] encrypted, Aead kek, byte[] associatedData, String description) {
    KeysetHandle h;
    try {
      h =
          TinkProtoKeysetFormat.parseEncryptedKeyset(
              encrypted, kek, associatedData, RegistryConfiguration.get());
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException(
          "cannot decrypt " + description + " (wrong key-encryption key or corrupted keyset): " + e,
          e);
    }
    return fromKeyset(h, description + " (" + h.size() + " keys)");
  }

  private static KeyProvider fromKeyset(KeysetHandle h, String description) {
    try {
      return new KeyProvider(KeyRing.ofKeyset(h, description));
    } catch (GeneralSecurityException e) {
      throw new InvalidRequestException(
          "keyset is not a usable AEAD keyset (AES-256-GCM expected): " + e.getMessage(), e);
    }
  }
}
