package dev.stowage.overflow;

import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.overflow.internal.BlobKeys;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * A {@link BlobStore} in the JVM heap, for tests, examples and the in-memory reference driver.
 *
 * <p>Thread-safe: every operation is atomic, a reader sees a whole blob or none, and a listing
 * reflects the blobs present when it started. Keys follow {@link BlobStore}'s rules (violations
 * throw {@link InvalidRequestException}); arguments must not be null. Blobs are kept until deleted
 * or until {@link #clear()}; {@link #close()} does nothing, so a closed store still works.
 */
public final class MemoryBlobStore implements BlobStore {
  private record Blob(byte[] data, Instant lastModified) {}

  private final ConcurrentSkipListMap<String, Blob> blobs = new ConcurrentSkipListMap<>();
  private final Clock clock;

  /** A store that stamps blobs with the system clock. */
  public MemoryBlobStore() {
    this(Clock.systemUTC());
  }

  /** A store that stamps blobs with {@code clock} (tests of grace periods inject one). */
  public MemoryBlobStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * {@inheritDoc}
   *
   * @throws InvalidRequestException if the key is invalid, {@code length} is negative or above
   *     {@code Integer.MAX_VALUE - 8}, or the stream ends early
   * @throws UnavailableException if reading {@code data} fails
   */
  @Override
  public void put(String key, InputStream data, long length) {
    BlobKeys.validate(key);
    Objects.requireNonNull(data, "data");
    if (length < 0 || length > Integer.MAX_VALUE - 8) {
      throw new InvalidRequestException("blob length " + length + " is out of range");
    }
    // Read straight into an array of the final size: no second copy of a large blob.
    byte[] bytes = new byte[(int) length];
    int read;
    try {
      read = data.readNBytes(bytes, 0, bytes.length);
    } catch (IOException e) {
      throw new UnavailableException("reading the data of blob " + key + " failed", e);
    }
    if (read != length) {
      throw new InvalidRequestException(
          "data of blob " + key + " ended after " + read + " of " + length + " bytes");
    }
    blobs.put(key, new Blob(bytes, clock.instant()));
  }

  @Override
  public Optional<InputStream> open(String key) {
    BlobKeys.validate(key);
    Blob b = blobs.get(key);
    return b == null ? Optional.empty() : Optional.of(new ByteArrayInputStream(b.data()));
  }

  @Override
  public void delete(String key) {
    BlobKeys.validate(key);
    blobs.remove(key);
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    BlobKeys.validatePrefix(prefix);
    ConcurrentNavigableMap<String, Blob> view =
        prefix.isEmpty() ? blobs : blobs.subMap(prefix, true, prefix + Character.MAX_VALUE, false);
    List<BlobInfo> snapshot = new ArrayList<>();
    view.forEach((k, b) -> snapshot.add(new BlobInfo(k, b.data().length, b.lastModified())));
    return snapshot.stream();
  }

  /** Number of blobs stored. */
  public int size() {
    return blobs.size();
  }

  /** Deletes every blob. */
  public void clear() {
    blobs.clear();
  }
}
