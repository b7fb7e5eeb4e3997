package dev.stowage.overflow.internal;

import dev.stowage.StowageException;
import dev.stowage.UnavailableException;
import dev.stowage.internal.Retrier;
import dev.stowage.overflow.BlobStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every call of a {@link BlobStore} under the store's retry policy, in a form that can be repeated:
 * a put takes a source that produces the same bytes again for each attempt, a read opens and reads
 * the whole blob in each attempt (a caller never continues a half-read stream), and a listing that
 * fails part-way lists again and skips the blobs it already returned. Thread-safe if the store is.
 */
public final class RetryingBlobs {
  private final BlobStore store;
  private final Retrier retrier;

  /**
   * @param store the blob store; not closed here
   * @param retrier the retry policy every call runs under
   */
  public RetryingBlobs(BlobStore store, Retrier retrier) {
    this.store = Objects.requireNonNull(store, "store");
    this.retrier = Objects.requireNonNull(retrier, "retrier");
  }

  /** The store the calls go to. */
  public BlobStore store() {
    return store;
  }

  /**
   * Stores {@code length} bytes under {@code key}; {@code data} is called once per attempt and must
   * produce the same bytes every time. A put repeated after one that landed but reported a failure
   * writes the same bytes again under the same key.
   */
  public void put(String key, Supplier<InputStream> data, long length) {
    retrier.run(
        () -> {
          try (InputStream in = data.get()) {
            store.put(key, in, length);
          } catch (IOException e) {
            throw new UnavailableException("writing blob " + key + " failed", e);
          }
        });
  }

  /** Reads a whole blob with {@code reader}; an I/O error while reading is retryable. */
  @FunctionalInterface
  public interface Reader<T> {
    /** Reads the stream to its end and returns what it held. */
    T read(InputStream in) throws IOException;
  }

  /**
   * Opens a blob and reads it with {@code reader}, both again on each attempt, so a failure
   * part-way through a blob starts over from its first byte with a fresh stream.
   *
   * @param what names the blob in the error of a failed read
   * @return empty if there is no blob under {@code key}
   */
  public <T> Optional<T> read(String key, String what, Reader<T> reader) {
    return retrier.call(
        () -> {
          Optional<InputStream> opened = store.open(key);
          if (opened.isEmpty()) {
            return Optional.empty();
          }
          try (InputStream in = opened.get()) {
            return Optional.of(reader.read(in));
          } catch (IOException e) {
            throw new UnavailableException("reading " + what + " failed", e);
          }
        });
  }

  /** Deletes a blob; deleting a missing one succeeds. */
  public void delete(String key) {
    retrier.run(() -> store.delete(key));
  }

  /** Deletes blobs; missing ones are ignored, so a repeated batch is harmless. */
  public void deleteAll(Collection<String> keys) {
    if (!keys.isEmpty()) {
      retrier.run(() -> store.deleteAll(keys));
    }
  }

  /**
   * Lists the blobs under {@code prefix}; close the stream. Each step runs under the retry policy:
   * if the listing fails part-way (a page request of a paginated listing), the next attempt lists
   * again from the start and skips every blob already returned, so each blob is returned once.
   */
  public Stream<BlobStore.BlobInfo> list(String prefix) {
    Listing listing = new Listing(prefix);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(
                listing, Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT),
            false)
        .onClose(listing::closeCurrent);
  }

  /** A listing that starts over after a failure, remembering the keys it returned. */
  private final class Listing implements Iterator<BlobStore.BlobInfo> {
    private final String prefix;
    private final Set<String> returned = new HashSet<>();
    private Stream<BlobStore.BlobInfo> current;
    private Iterator<BlobStore.BlobInfo> it;
    private BlobStore.BlobInfo next;
    private boolean done;

    Listing(String prefix) {
      this.prefix = prefix;
    }

    @Override
    public boolean hasNext() {
      if (next == null && !done) {
        next = retrier.call(this::advance);
        done = next == null;
        if (done) {
          closeCurrent();
        }
      }
      return next != null;
    }

    @Override
    public BlobStore.BlobInfo next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      BlobStore.BlobInfo b = next;
      next = null;
      return b;
    }

    /** The next blob not yet returned, or null at the end; one attempt. */
    private BlobStore.BlobInfo advance() {
      try {
        if (it == null) {
          current = store.list(prefix);
          it = current.iterator();
        }
        while (it.hasNext()) {
          BlobStore.BlobInfo b = it.next();
          if (returned.add(b.key())) {
            return b;
          }
        }
        return null;
      } catch (StowageException e) {
        if (e.retryable()) {
          closeCurrent(); // the next attempt lists again
        }
        throw e;
      }
    }

    void closeCurrent() {
      Stream<BlobStore.BlobInfo> s = current;
      current = null;
      it = null;
      if (s != null) {
        try {
          s.close();
        } catch (RuntimeException ignored) {
          // Closing a failed listing may fail too; the listing is abandoned either way.
        }
      }
    }
  }
}
