package dev.stowage.cli.internal;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;

/**
 * Tink keysets in cleartext JSON files, as the command line reads them ({@code --keyset}, {@code
 * --cursor-keyset}): created with a fresh AES-256-GCM key, or rotated by adding a new primary key.
 * Keys are generated and serialized by Tink only; files are written readable by their owner only,
 * and replaced atomically, so a reader never sees half a keyset.
 */
public final class KeysetFiles {
  private KeysetFiles() {}

  /**
   * Creates {@code file} with a keyset of one fresh AES-256-GCM key.
   *
   * @throws CliException if the file exists (usage) or cannot be written
   */
  public static void create(Path file) {
    if (Files.exists(file)) {
      throw new CliException(
          file + " exists; give another --out, or --rotate to add a new primary key to it");
    }
    try {
      AeadConfig.register();
      KeysetHandle handle = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
      write(file, serialize(handle));
    } catch (GeneralSecurityException | IOException e) {
      throw new CliException("cannot create keyset " + file + ": " + e.getMessage(), 1);
    }
  }

  /**
   * Adds a fresh AES-256-GCM key to the keyset in {@code file} as its primary: new values are
   * encrypted under it, values under the keys before still decrypt.
   *
   * @return the keys the keyset holds now
   * @throws CliException if the file does not exist or is not an AEAD keyset (usage), or cannot be
   *     written
   */
  public static int rotate(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new CliException("keyset file " + file + " does not exist");
    }
    KeysetHandle before;
    try {
      AeadConfig.register();
      before =
          TinkJsonProtoKeysetFormat.parseKeyset(
              Files.readString(file), InsecureSecretKeyAccess.get());
      before.getPrimitive(RegistryConfiguration.get(), Aead.class);
    } catch (GeneralSecurityException | IOException e) {
      throw new CliException(
          "keyset file "
              + file
              + " is not a Tink AEAD keyset in cleartext JSON: "
              + e.getMessage());
    }
    try {
      KeysetHandle.Builder b = KeysetHandle.newBuilder(before);
      b.addEntry(
          KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
              .withRandomId()
              .makePrimary());
      KeysetHandle after = b.build();
      after.getPrimitive(RegistryConfiguration.get(), Aead.class);
      replace(file, serialize(after));
      return after.size();
    } catch (GeneralSecurityException | IOException e) {
      throw new CliException("cannot rotate keyset " + file + ": " + e.getMessage(), 1);
    }
  }

  private static String serialize(KeysetHandle handle) throws GeneralSecurityException {
    return TinkJsonProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get());
  }

  /**
   * Writes a new keyset file; if another process created the file meanwhile, its keyset stays (two
   * first uses of the cursor keyset agree on one key).
   */
  static void write(Path file, String json) throws IOException {
    Path tmp = owned(file, json);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.exists(file)) {
        throw e;
      }
      Files.deleteIfExists(tmp);
    }
  }

  /** Replaces a keyset file atomically. */
  private static void replace(Path file, String json) throws IOException {
    Path tmp = owned(file, json);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** The keyset written to a temporary file beside {@code file}, readable by its owner only. */
  private static Path owned(Path file, String json) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, json, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: the directory's permissions apply
    }
    return tmp;
  }
}
