package dev.stowage.cli.internal.cmd;

import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.aead.AeadConfig;
import com.google.crypto.tink.aead.PredefinedAeadParameters;
import dev.stowage.Stowage;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.Tour;
import dev.stowage.codec.Codecs;
import dev.stowage.codec.KeyProvider;
import dev.stowage.overflow.MemoryBlobStore;
import java.security.GeneralSecurityException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code stowage tour}. */
@Command(
    name = "tour",
    mixinStandardHelpOptions = true,
    description =
        "Walk through Stowage's features on an embedded in-memory store (nothing to install,"
            + " nothing kept), printing what each step did and what it cost.")
public final class TourCommand implements Callable<Integer> {
  @ParentCommand Main main;

  @Override
  public Integer call() {
    Codecs codecs;
    try {
      AeadConfig.register();
      codecs =
          Codecs.builder()
              .keys(
                  KeyProvider.ofKeyset(
                      KeysetHandle.generateNew(PredefinedAeadParameters.AES256_GCM)))
              .build();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot generate a Tink keyset", e);
    }
    Tour tour =
        new Tour(
            main.out(),
            new MemoryBlobStore(),
            (driver, blobs) -> Stowage.builder(driver).blobStore(blobs).codecs(codecs).build());
    try (Stowage s = tour.store()) {
      tour.run();
    }
    return 0;
  }
}
