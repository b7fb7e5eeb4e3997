package dev.stowage.cli;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import java.nio.file.Files;
import java.nio.file.Path;

/** Tink keysets written to files, as a user would keep them. */
final class Keysets {
  private Keysets() {}

  static KeysetHandle generate() throws Exception {
    AeadConfig.register();
    return KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM);
  }

  /** The keyset with a new primary key added (the old one kept for reading). */
  static KeysetHandle rotate(KeysetHandle old) throws Exception {
    return KeysetHandle.newBuilder(old)
        .addEntry(
            KeysetHandle.generateEntryFromParameters(PredefinedAeadParameters.AES256_GCM)
                .withRandomId()
                .makePrimary())
        .build();
  }

  static Path write(Path file, KeysetHandle h) throws Exception {
    Files.writeString(
        file, TinkJsonProtoKeysetFormat.serializeKeyset(h, InsecureSecretKeyAccess.get()));
    return file;
  }
}
