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
import java.security.GeneralSecurityException;

/**
 * The key that seals page cursors printed by the command line, so that a cursor printed by one
 * invocation is accepted by the next. Read from {@code --cursor-keyset}, else {@code
 * $STOWAGE_CURSOR_KEYSET}, else {@code <stowage home>/cursor-keyset.json} (see {@link
 * StowageHome}), which is created with a fresh AES-256-GCM key (owner-only permissions) on first
 * use.
 */
public final class CursorKeys {
  private CursorKeys() {}

  /**
   * The cursor keyset (for {@code Stowage.Builder.cursorKeys}, so a cursor sealed under another
   * keyset is reported as such). @throws CliException if the keyset cannot be read or written
   */
  public static KeysetHandle load(Path explicit) {
    Path file = explicit;
    if (file == null && System.getenv("STOWAGE_CURSOR_KEYSET") != null) {
      file = Path.of(System.getenv("STOWAGE_CURSOR_KEYSET"));
    }
    if (file == null) {
      file = StowageHome.get().resolve("cursor-keyset.json");
    }
    try {
      AeadConfig.register();
      KeysetHandle handle;
      if (Files.exists(file)) {
        handle =
            TinkJsonProtoKeysetFormat.parseKeyset(
                Files.readString(file), InsecureSecretKeyAccess.get());
      } else if (explicit != null) {
        throw new CliException("cursor keyset " + file + " does not exist");
      } else {
        handle = KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
        KeysetFiles.write(
            file, TinkJsonProtoKeysetFormat.serializeKeyset(handle, InsecureSecretKeyAccess.get()));
      }
      handle.getPrimitive(RegistryConfiguration.get(), Aead.class); // an AEAD keyset, or fail here
      return handle;
    } catch (GeneralSecurityException | IOException e) {
      throw new CliException("cannot use cursor keyset " + file + ": " + e.getMessage(), 1);
    }
  }
}
