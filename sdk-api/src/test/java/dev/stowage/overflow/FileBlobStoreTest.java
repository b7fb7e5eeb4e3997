package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileBlobStoreTest extends BlobStoreContract {
  @TempDir Path dir;
  private FileBlobStore store;

  @Override
  BlobStore store() {
    if (store == null) {
      store = new FileBlobStore(dir.resolve("blobs"));
    }
    return store;
  }

  @Test
  void blobsAreFilesUnderTheRoot() throws IOException {
    store().put("prod/orders/abc", new byte[] {1, 2, 3});
    assertThat(Files.readAllBytes(dir.resolve("blobs/prod/orders/abc"))).containsExactly(1, 2, 3);
    assertThat(new FileBlobStore(dir.resolve("blobs")).get("prod/orders/abc")).isPresent();
  }

  @Test
  void keysEscapingTheRootAreRejected() throws IOException {
    Files.writeString(dir.resolve("secret"), "s");
    for (String bad : new String[] {"../secret", "a/../../secret", "/etc/passwd", "~tmp/x"}) {
      assertThatThrownBy(() -> store().get(bad))
          .as(bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> store().put(bad, new byte[1]))
          .as(bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> store().delete(bad))
          .as(bad)
          .isInstanceOf(InvalidRequestException.class);
    }
    assertThat(Files.readString(dir.resolve("secret"))).isEqualTo("s");
  }

  @Test
  void failedWriteLeavesNoPartialBlob() {
    InputStream failing =
        new InputStream() {
          int n;

          @Override
          public int read() throws IOException {
            if (n++ > 5000) {
              throw new IOException("connection reset");
            }
            return 7;
          }
        };
    assertThatThrownBy(() -> store().put("a/b", failing, 10_000))
        .isInstanceOf(dev.stowage.UnavailableException.class);
    assertThat(store().get("a/b")).isEmpty();
    try (Stream<BlobStore.BlobInfo> l = store().list("")) {
      assertThat(l).isEmpty();
    }
  }

  @Test
  void overwriteReplacesAtomically() {
    store().put("k", new byte[] {1});
    store().put("k", new byte[] {2, 2});
    assertThat(store().get("k")).hasValue(new byte[] {2, 2});
  }

  @Test
  void aDirectoryIsNotABlob() {
    store().put("d/x", new byte[1]);
    assertThat(store().get("d")).isEmpty();
    store().delete("d");
    assertThat(store().get("d/x")).isPresent();
  }

  @Test
  void listingWhileBlobsAreDeletedNeverFails() throws Exception {
    for (int i = 0; i < 300; i++) {
      store().put("t/k" + i, new byte[10]);
    }
    Thread deleter =
        new Thread(
            () -> {
              for (int i = 0; i < 300; i++) {
                store.delete("t/k" + i);
              }
            });
    deleter.start();
    try {
      while (deleter.isAlive()) {
        try (Stream<BlobStore.BlobInfo> l = store().list("t/")) {
          assertThat(l.count()).isBetween(0L, 300L);
        }
      }
    } finally {
      deleter.join();
    }
    try (Stream<BlobStore.BlobInfo> l = store().list("t/")) {
      assertThat(l).isEmpty();
    }
  }
}
