package dev.stowage.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary store directories for tests, deleted when the JVM exits. */
final class TempStores {
  private TempStores() {}

  /** A fresh empty directory. */
  static Path directory() {
    try {
      Path dir = Files.createTempDirectory("stowage-local-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort
    }
  }
}
