package dev.stowage.overflow;

import java.io.InputStream;
import java.time.Instant;
import java.util.Collection;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where oversized items overflow to: S3, GCS, Azure Blob, the local filesystem or memory.
 *
 * <p>Keys are relative paths of printable ASCII ({@code [A-Za-z0-9/._=-]}, at most 512 characters);
 * the store adds its own bucket and prefix. Stowage never overwrites a blob: each item version gets
 * a fresh key. Implementations must be thread-safe, translate native errors to {@link
 * dev.stowage.StowageException} subclasses (keeping the cause) and never retry on their own.
 */
public interface BlobStore extends AutoCloseable {

  /** Stores {@code length} bytes read from {@code data} under {@code key}. */
  void put(String key, InputStream data, long length);

  /** Stores a byte array. */
  default void put(String key, byte[] data) {
    put(key, new java.io.ByteArrayInputStream(data), data.length);
  }

  /**
   * Opens a blob for reading; the caller closes the stream.
   *
   * @return empty if there is no blob under {@code key}
   */
  Optional<InputStream> open(String key);

  /** Reads a whole blob, or empty if there is none. */
  default Optional<byte[]> get(String key) {
    return open(key)
        .map(
            in -> {
              try (in) {
                return in.readAllBytes();
              } catch (java.io.IOException e) {
                throw new dev.stowage.UnavailableException("reading blob " + key + " failed", e);
              }
            });
  }

  /** Deletes a blob; deleting a missing blob succeeds. */
  void delete(String key);

  /** Deletes several blobs (batched where the service allows); missing ones are ignored. */
  default void deleteAll(Collection<String> keys) {
    keys.forEach(this::delete);
  }

  /** Lists blobs whose key starts with {@code prefix}, in no particular order; close the stream. */
  Stream<BlobInfo> list(String prefix);

  /** Releases resources the store created (not clients the application passed in). */
  @Override
  default void close() {}

  /**
   * A listed blob.
   *
   * @param key the blob key (without the store's own prefix)
   * @param size bytes
   * @param lastModified when it was written
   */
  record BlobInfo(String key, long size, Instant lastModified) {
    public BlobInfo {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(lastModified, "lastModified");
    }
  }
}
