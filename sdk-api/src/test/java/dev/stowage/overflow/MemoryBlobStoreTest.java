package dev.stowage.overflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MemoryBlobStoreTest extends BlobStoreContract {
  private final MemoryBlobStore store = new MemoryBlobStore();

  @Override
  BlobStore store() {
    return store;
  }

  @Test
  void stampsBlobsWithItsClockAndClears() {
    MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    MemoryBlobStore s = new MemoryBlobStore(clock);
    s.put("a", new byte[1]);
    clock.advance(Duration.ofMinutes(5));
    s.put("b", new byte[1]);
    assertThat(s.list("").map(BlobStore.BlobInfo::lastModified))
        .containsExactly(
            Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-01-01T00:05:00Z"));
    assertThat(s.size()).isEqualTo(2);
    s.clear();
    assertThat(s.size()).isZero();
  }
}
