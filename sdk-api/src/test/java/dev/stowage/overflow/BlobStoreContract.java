package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Behaviour every blob store in sdk-api must show. */
abstract class BlobStoreContract {
  abstract BlobStore store();

  @Test
  void putGetDeleteRoundTrip() {
    BlobStore s = store();
    byte[] data = Fixtures.randomBytes(100_000, 1).toByteArray();
    s.put("ns/t/abc", data);
    assertThat(s.get("ns/t/abc")).hasValue(data);
    s.delete("ns/t/abc");
    assertThat(s.get("ns/t/abc")).isEmpty();
    assertThat(s.open("ns/t/abc")).isEmpty();
    s.delete("ns/t/abc"); // deleting a missing blob succeeds
  }

  @Test
  void emptyBlobAndStreamingPut() throws Exception {
    BlobStore s = store();
    s.put("e", new byte[0]);
    assertThat(s.get("e")).hasValue(new byte[0]);
    byte[] data = Fixtures.randomBytes(70_000, 2).toByteArray();
    s.put("streamed.bin", new ByteArrayInputStream(data), data.length);
    try (InputStream in = s.open("streamed.bin").orElseThrow()) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void streamShorterThanTheLengthIsRejectedAndNothingIsStored() {
    BlobStore s = store();
    assertThatThrownBy(() -> s.put("short", new ByteArrayInputStream(new byte[10]), 11))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(s.get("short")).isEmpty();
    try (Stream<BlobStore.BlobInfo> all = s.list("")) {
      assertThat(all).isEmpty();
    }
  }

  @Test
  void listByPrefixWithSizesAndTimes() {
    BlobStore s = store();
    s.put("prod/orders/1", new byte[3]);
    s.put("prod/orders/2", new byte[5]);
    s.put("prod/orders-archive/1", new byte[1]);
    s.put("staging/orders/1", new byte[1]);
    try (Stream<BlobStore.BlobInfo> l = s.list("prod/orders/")) {
      List<BlobStore.BlobInfo> infos = l.sorted((a, b) -> a.key().compareTo(b.key())).toList();
      assertThat(infos)
          .extracting(BlobStore.BlobInfo::key)
          .containsExactly("prod/orders/1", "prod/orders/2");
      assertThat(infos).extracting(BlobStore.BlobInfo::size).containsExactly(3L, 5L);
      assertThat(infos.get(0).lastModified()).isNotNull();
    }
    try (Stream<BlobStore.BlobInfo> l = s.list("prod/orders")) {
      assertThat(l.map(BlobStore.BlobInfo::key).collect(Collectors.toSet()))
          .containsExactlyInAnyOrder("prod/orders/1", "prod/orders/2", "prod/orders-archive/1");
    }
    try (Stream<BlobStore.BlobInfo> l = s.list("")) {
      assertThat(l).hasSize(4);
    }
    try (Stream<BlobStore.BlobInfo> l = s.list("nothing/")) {
      assertThat(l).isEmpty();
    }
  }

  @Test
  void invalidKeysAreRejected() {
    BlobStore s = store();
    for (String bad :
        List.of(
            "",
            "/abs",
            "a//b",
            "a/../b",
            "..",
            "a/.",
            "sp ace",
            "a\\b",
            "ü",
            "a/",
            "x".repeat(513))) {
      assertThatThrownBy(() -> s.put(bad, new byte[1]))
          .as(bad)
          .isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> s.open(bad)).as(bad).isInstanceOf(InvalidRequestException.class);
      assertThatThrownBy(() -> s.delete(bad)).as(bad).isInstanceOf(InvalidRequestException.class);
    }
    s.put("A-z_0.9=x/y", new byte[1]);
    assertThat(s.get("A-z_0.9=x/y")).isPresent();
  }

  @Test
  void concurrentPutsAndReadsSeeWholeBlobs() throws Exception {
    BlobStore s = store();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    byte[] data = Fixtures.randomBytes(2000 + i, thread * 1000L + i).toByteArray();
                    String key = "c/" + thread + "/" + i;
                    s.put(key, data);
                    assertThat(s.get(key)).hasValue(data);
                    if (i % 2 == 0) {
                      s.delete(key);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    try (Stream<BlobStore.BlobInfo> l = s.list("c/")) {
      assertThat(l).hasSize(100);
    }
  }
}
