package dev.stowage.cli.internal;

import dev.stowage.StowageException;
import dev.stowage.codec.KeyProvider;
import java.nio.file.Files;
import java.nio.file.Path;

/** Key sources for encrypted attributes: {@code --keyset FILE} (Tink cleartext JSON keyset). */
public final class Keys {
  private Keys() {}

  /**
   * Reads a keyset file.
   *
   * @throws CliException (a usage error, as for any file the command cannot use) if it is missing
   *     or not a cleartext JSON AEAD keyset
   */
  public static KeyProvider load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new CliException("keyset file " + file + " does not exist");
    }
    try {
      return KeyProvider.ofCleartextJsonKeysetFile(file);
    } catch (StowageException | IllegalArgumentException e) {
      // The cause is Tink's own reason ("Parse keyset failed", a key type that is not an AEAD);
      // KeyProvider's message would name the file a second time.
      Throwable reason = e.getCause() != null ? e.getCause() : e;
      throw new CliException(
          "keyset file "
              + file
              + " is not a Tink AEAD keyset in cleartext JSON (as `stowage keyset --out FILE` or"
              + " `tinkey create-keyset --key-template AES256_GCM --out-format json` writes it): "
              + reason.getMessage());
    }
  }
}
