package dev.stowage.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.InvalidRequestException;
import dev.stowage.overflow.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GCS blob store on {@link LocalStorageHelper}, the in-memory fake of the Storage client (the
 * only offline GCS available). Its gaps: buckets are implicit, batch delete is not implemented,
 * precondition failures come back with code 0 and listing is not lexicographic, so these tests use
 * none of those, and neither does the store.
 */
class GcsBlobStoreTest {
  private final Storage storage = LocalStorageHelper.getOptions().getService();
  private final GcsBlobStore store = GcsBlobStore.of(storage, "overflow", "prod/stowage");

  private static byte[] random(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  @Test
  void smallBlobsRoundTrip() {
    byte[] data = random(1000);
    store.put("t/a.bin", data);
    assertThat(store.get("t/a.bin")).hasValueSatisfying(b -> assertThat(b).isEqualTo(data));
    store.put("t/empty", new byte[0]);
    assertThat(store.get("t/empty")).hasValueSatisfying(b -> assertThat(b).isEmpty());
  }

  @Test
  void largeBlobsStreamThroughResumableUploadsAndChunkedReads() throws Exception {
    byte[] data = random(GcsBlobStore.SINGLE_REQUEST_BYTES + 3_000_001);
    store.put("t/big", new ByteArrayInputStream(data), data.length);
    try (InputStream in = store.open("t/big").orElseThrow()) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void missingBlobsAreEmptyAndDeletesAreIdempotent() {
    assertThat(store.open("nope")).isEmpty();
    store.delete("nope");
    store.put("t/x", new byte[] {1});
    store.delete("t/x");
    assertThat(store.get("t/x")).isEmpty();
  }

  @Test
  void listingIsByPrefixAndStaysInsideTheStorePrefix() {
    GcsBlobStore staging = GcsBlobStore.of(storage, "overflow", "staging/stowage/");
    store.put("list/a", new byte[] {1, 2});
    store.put("list/b", new byte[] {3});
    store.put("other/c", new byte[] {4});
    staging.put("list/z", new byte[] {5});
    try (Stream<BlobStore.BlobInfo> s = store.list("list/")) {
      assertThat(s.toList())
          .extracting(BlobStore.BlobInfo::key, BlobStore.BlobInfo::size)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple("list/a", 2L),
              org.assertj.core.groups.Tuple.tuple("list/b", 1L));
    }
    store.deleteAll(List.of("list/a", "list/b", "missing"));
    try (Stream<BlobStore.BlobInfo> s = store.list("list/")) {
      assertThat(s).isEmpty();
    }
    assertThat(staging.get("list/z")).isPresent();
  }

  @Test
  void malformedKeysAndShortStreamsAreRefused() {
    assertThatThrownBy(() -> store.put("bad key", new byte[1]))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> store.put("t/short", new ByteArrayInputStream(new byte[3]), 5))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> store.put("t/long", new ByteArrayInputStream(new byte[6]), 5))
        .isInstanceOf(InvalidRequestException.class);
  }
}
