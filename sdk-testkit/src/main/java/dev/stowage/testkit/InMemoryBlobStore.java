package dev.stowage.testkit;

import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.overflow.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A small blob store in memory, for the in-memory reference fixture and for drivers' own tests.
 *
 * <p>Thread-safe. It enforces the {@link BlobStore} key rules (printable ASCII {@code
 * [A-Za-z0-9/._=-]}, 1 to 512 characters) so a core that breaks them fails here as it would on a
 * cloud store, and it stores exactly the declared number of bytes: a stream that ends early is an
 * error. Blobs are held as byte arrays; {@link #list} returns a snapshot in key order.
 */
public final class InMemoryBlobStore implements BlobStore {
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9/._=-]{1,512}");

  private record Blob(byte[] data, Instant lastModified) {}

  private final ConcurrentSkipListMap<String, Blob> blobs = new ConcurrentSkipListMap<>();
  private final Clock clock;

  /** A store stamping blobs with the system clock. */
  public InMemoryBlobStore() {
    this(Clock.systemUTC());
  }

  /** A store stamping blobs with {@code clock} (for grace-period tests). */
  public InMemoryBlobStore(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Stores {@code length} bytes read from {@code data}.
   *
   * @throws InvalidRequestException on an invalid key or negative length
   * @throws UnavailableException if the stream fails or ends before {@code length} bytes
   */
  @Override
  public void put(String key, InputStream data, long length) {
    checkKey(key);
    if (length < 0 || length > Integer.MAX_VALUE - 8) {
      throw new InvalidRequestException("blob length " + length + " is out of range");
    }
    byte[] bytes;
    try {
      bytes = data.readNBytes((int) length);
    } catch (IOException e) {
      throw new UnavailableException("reading the data of blob " + key + " failed", e);
    }
    if (bytes.length != length) {
      throw new UnavailableException(
          "blob " + key + " declared " + length + " bytes but its stream held " + bytes.length);
    }
    blobs.put(key, new Blob(bytes, clock.instant()));
  }

  @Override
  public Optional<InputStream> open(String key) {
    checkKey(key);
    Blob b = blobs.get(key);
    return b == null ? Optional.empty() : Optional.of(new ByteArrayInputStream(b.data()));
  }

  @Override
  public void delete(String key) {
    checkKey(key);
    blobs.remove(key);
  }

  @Override
  public Stream<BlobInfo> list(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    List<BlobInfo> snapshot =
        blobs.tailMap(prefix, true).entrySet().stream()
            .takeWhile(e -> e.getKey().startsWith(prefix))
            .map(
                e ->
                    new BlobInfo(
                        e.getKey(), e.getValue().data().length, e.getValue().lastModified()))
            .toList();
    return snapshot.stream();
  }

  /** Number of blobs held, for tests. */
  public int size() {
    return blobs.size();
  }

  private static void checkKey(String key) {
    if (key == null || !KEY.matcher(key).matches()) {
      throw new InvalidRequestException(
          "blob key '" + key + "' must be 1 to 512 characters of [A-Za-z0-9/._=-]");
    }
  }
}
