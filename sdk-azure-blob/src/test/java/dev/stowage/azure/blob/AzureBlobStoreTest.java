package dev.stowage.azure.blob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.overflow.BlobStore;
import dev.stowage.test.Emulators;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class AzureBlobStoreTest {
  static AzureBlobStore store;

  @BeforeAll
  static void start() {
    store =
        AzureBlobStore.fromConnectionString(
            Emulators.shared().azurite().connectionString(), "stowage", "ns1/");
  }

  @Test
  void putGetListDelete() {
    store.put("t/a/1", new byte[] {1, 2, 3});
    store.put("t/a/2", new byte[0]);
    store.put("t/b/1", new byte[] {4});
    assertThat(store.get("t/a/1")).hasValueSatisfying(b -> assertThat(b).containsExactly(1, 2, 3));
    assertThat(store.get("t/a/2")).hasValueSatisfying(b -> assertThat(b).isEmpty());
    assertThat(store.get("t/missing")).isEmpty();
    try (var s = store.list("t/a/")) {
      assertThat(s.map(BlobStore.BlobInfo::key).sorted().toList())
          .containsExactly("t/a/1", "t/a/2");
    }
    store.deleteAll(List.of("t/a/1", "t/a/2", "t/never"));
    store.delete("t/never");
    try (var s = store.list("t/")) {
      assertThat(s.map(BlobStore.BlobInfo::key).toList()).containsExactly("t/b/1");
    }
  }

  @Test
  void largeBlobsUploadInBlocksAndStream() throws Exception {
    byte[] data = new byte[9 * 1024 * 1024 + 17];
    new Random(7).nextBytes(data);
    store.put("big/1", new ByteArrayInputStream(data), data.length);
    try (InputStream in = store.open("big/1").orElseThrow()) {
      byte[] head = in.readNBytes(1024);
      assertThat(head).containsExactly(java.util.Arrays.copyOf(data, 1024));
      assertThat(in.readAllBytes()).hasSize(data.length - 1024);
    }
    try (var s = store.list("big/")) {
      assertThat(s.findFirst().orElseThrow().size()).isEqualTo(data.length);
    }
  }

  @Test
  void errorsAreTranslated() {
    assertThatThrownBy(() -> store.put("bad key?", new byte[1]))
        .isInstanceOf(InvalidRequestException.class);
    AzureBlobStore noContainer =
        AzureBlobStore.of(
            new com.azure.storage.blob.BlobServiceClientBuilder()
                .connectionString(Emulators.shared().azurite().connectionString())
                .buildClient()
                .getBlobContainerClient("missing-container"),
            "");
    assertThatThrownBy(() -> noContainer.put("x", new byte[1]))
        .isInstanceOf(NotFoundException.class);
  }
}
