package dev.stowage.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.overflow.BlobStore.BlobInfo;
import dev.stowage.test.Emulators;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class S3BlobStoreTest {
  static String bucket;
  static S3BlobStore store;

  @BeforeAll
  static void setUp() {
    bucket = Emulators.shared().s3().newBucket();
    store =
        S3BlobStore.builder()
            .client(Emulators.shared().s3().client())
            .bucket(bucket)
            .prefix("stowage/prod")
            .partSize(S3BlobStore.Builder.MIN_PART_SIZE)
            .multipartThreshold(S3BlobStore.Builder.MIN_PART_SIZE)
            .batchSizesForTests(40, 30)
            .build();
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void putGetAndDeleteUnderThePrefix() {
    store.put("a/one", new byte[] {1, 2, 3});
    store.put("a/empty", new byte[0]);
    assertThat(store.get("a/one")).hasValueSatisfying(b -> assertThat(b).containsExactly(1, 2, 3));
    assertThat(store.get("a/empty")).hasValueSatisfying(b -> assertThat(b).isEmpty());
    assertThat(
            Emulators.shared()
                .s3()
                .client()
                .headObject(b -> b.bucket(bucket).key("stowage/prod/a/one"))
                .contentLength())
        .isEqualTo(3);
    store.delete("a/one");
    store.delete("a/one");
    assertThat(store.get("a/one")).isEmpty();
    assertThat(store.open("never")).isEmpty();
  }

  @Test
  void largeBlobsUseMultipartAndStreamBack() throws IOException {
    byte[] data = random(12 * 1024 * 1024 + 17, 1);
    store.put("big/blob", new ByteArrayInputStream(data), data.length);
    try (InputStream in = store.open("big/blob").orElseThrow()) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
    try (InputStream in = store.open("big/blob", 6 * 1024 * 1024, 100).orElseThrow()) {
      byte[] part = in.readAllBytes();
      assertThat(part).hasSize(100);
      for (int i = 0; i < 100; i++) {
        assertThat(part[i]).isEqualTo(data[6 * 1024 * 1024 + i]);
      }
    }
  }

  @Test
  void aShortStreamAbortsTheUpload() {
    byte[] data = random(5 * 1024 * 1024 + 1, 2);
    assertThatThrownBy(() -> store.put("short", new ByteArrayInputStream(data), data.length + 10L))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(store.open("short")).isEmpty();
    assertThat(
            Emulators.shared().s3().client().listMultipartUploads(b -> b.bucket(bucket)).uploads())
        .noneMatch(u -> u.key().endsWith("short"));
  }

  @Test
  void listsByPrefixAndDeletesInBatches() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 105; i++) {
      keys.add("sweep/" + i);
    }
    keys.parallelStream().forEach(k -> store.put(k, new byte[] {7}));
    store.put("other/x", new byte[] {1, 2});
    try (Stream<BlobInfo> listed = store.list("sweep/")) {
      List<BlobInfo> all = listed.toList();
      assertThat(all).hasSize(105);
      assertThat(all).allSatisfy(b -> assertThat(b.key()).startsWith("sweep/"));
      assertThat(all).allSatisfy(b -> assertThat(b.size()).isEqualTo(1));
    }
    List<String> toDelete = new ArrayList<>(keys);
    toDelete.add("sweep/missing");
    store.deleteAll(toDelete);
    try (Stream<BlobInfo> listed = store.list("sweep/")) {
      assertThat(listed).isEmpty();
    }
    try (Stream<BlobInfo> listed = store.list("")) {
      assertThat(listed.map(BlobInfo::key)).contains("other/x");
    }
  }

  @Test
  void invalidKeysAndMissingBucketsAreTranslated() {
    assertThatThrownBy(() -> store.put("bad key", new byte[1]))
        .isInstanceOf(InvalidRequestException.class);
    S3BlobStore nowhere =
        S3BlobStore.builder()
            .client(Emulators.shared().s3().client())
            .bucket("no-such-bucket-x")
            .build();
    assertThatThrownBy(() -> nowhere.put("k", new byte[1])).isInstanceOf(NotFoundException.class);
  }

  @Test
  void storeBuiltFromEndpointOwnsItsClient() {
    try (S3BlobStore own =
        S3BlobStore.builder()
            .region(software.amazon.awssdk.regions.Region.US_EAST_1)
            .endpoint(Emulators.shared().s3().endpoint())
            .forcePathStyle(true)
            .credentials(
                software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                    software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                        "access", "secret")))
            .bucket(bucket)
            .build()) {
      own.put("own", new byte[] {5});
      assertThat(own.get("own")).isPresent();
      assertThat(store.get("own")).isEmpty();
    }
  }
}
