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
   * @throws CliException if it is missing or not an AEAD keyset
   */
  public static KeyProvider load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new CliException("keyset file " + file + " does not exist", 1);
    }
    try {
      return KeyProvider.ofCleartextJsonKeysetFile(file);
    } catch (StowageException | IllegalArgumentException e) {
      throw new CliException(
          "keyset file " + file + " is not a Tink AEAD keyset: " + e.getMessage(), 1);
    }
  }
}
