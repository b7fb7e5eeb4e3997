package dev.stowage.gcs;

import com.google.cloud.ReadChannel;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.gcs.internal.GcsErrors;
import dev.stowage.overflow.BlobStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Overflow blobs in a Google Cloud Storage bucket under a prefix, over the application's {@link
 * Storage} client.
 *
 * <p>Blobs up to {@value #SINGLE_REQUEST_BYTES} bytes are uploaded in one request; larger ones are
 * streamed through a resumable upload ({@link Storage#writer}) without buffering the whole blob.
 * Reads go through {@link Storage#reader}: the first {@value #READ_AHEAD} bytes when the blob is
 * opened (so a missing blob is reported as empty), the rest streamed on demand. Only calls the real
 * service supports are used: no bucket creation (the bucket must exist), no preconditions, and
 * {@link #deleteAll} deletes one blob per request.
 *
 * <p>Thread-safe (the client is). Arguments must not be null. Errors become Stowage exceptions: a
 * missing bucket {@link dev.stowage.NotFoundException}, 429 {@link dev.stowage.ThrottledException},
 * 5xx and I/O failures {@link UnavailableException}, malformed keys {@link
 * InvalidRequestException}.
 */
public final class GcsBlobStore implements BlobStore {
  /** Largest blob uploaded in a single request; larger ones use a resumable upload. */
  public static final int SINGLE_REQUEST_BYTES = 4 * 1024 * 1024;

  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9/._=-]{1,512}");
  private static final int CHUNK = 8 * 1024 * 1024;

  /** Bytes read when a blob is opened; a blob no larger is read in one go. */
  public static final int READ_AHEAD = 4 * 1024 * 1024;

  private final Storage storage;
  private final String bucket;
  private final String prefix;

  private GcsBlobStore(Storage storage, String bucket, String prefix) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.bucket = Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(prefix, "prefix");
    this.prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
  }

  /**
   * A store in {@code bucket} under {@code prefix} ("" for the bucket root; a missing trailing
   * {@code /} is added). The client stays the caller's to close.
   */
  public static GcsBlobStore of(Storage storage, String bucket, String prefix) {
    return new GcsBlobStore(storage, bucket, prefix);
  }

  @Override
  public void put(String key, InputStream data, long length) {
    com.google.cloud.storage.BlobInfo info =
        com.google.cloud.storage.BlobInfo.newBuilder(id(key))
            .setContentType("application/octet-stream")
            .build();
    try {
      if (length <= SINGLE_REQUEST_BYTES) {
        byte[] bytes = data.readNBytes((int) length);
        checkLength(key, bytes.length, length, data);
        storage.create(info, bytes);
        return;
      }
      long written = 0;
      try (WriteChannel out = storage.writer(info)) {
        out.setChunkSize(CHUNK);
        byte[] buf = new byte[256 * 1024];
        while (written < length) {
          int n = data.read(buf, 0, (int) Math.min(buf.length, length - written));
          if (n < 0) {
            break;
          }
          ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
          while (bb.hasRemaining()) {
            out.write(bb);
          }
          written += n;
        }
        // Checked before close(): closing finalizes the upload.
        checkLength(key, written, length, data);
      }
    } catch (StorageException e) {
      throw GcsErrors.translate("writing blob " + key, e);
    } catch (IOException e) {
      if (e.getCause() instanceof StorageException se) {
        throw GcsErrors.translate("writing blob " + key, se);
      }
      throw new UnavailableException("writing blob " + key + " failed", e);
    }
  }

  private static void checkLength(String key, long got, long expected, InputStream data)
      throws IOException {
    if (got != expected || data.read() != -1) {
      throw new InvalidRequestException(
          "blob " + key + ": the stream does not hold exactly " + expected + " bytes");
    }
  }

  /**
   * Opens a blob. The first {@value #READ_AHEAD} bytes are read before returning, so a blob that is
   * missing, or deleted between listing and reading, is reported as empty rather than failing
   * later; the rest (of larger blobs) streams on demand.
   */
  @Override
  public Optional<InputStream> open(String key) {
    BlobId id = id(key);
    ReadChannel channel = storage.reader(id);
    boolean handedOver = false;
    try {
      channel.setChunkSize(READ_AHEAD);
      InputStream in = Channels.newInputStream(channel);
      byte[] head = in.readNBytes(READ_AHEAD);
      if (head.length < READ_AHEAD) {
        return Optional.of(new ByteArrayInputStream(head));
      }
      handedOver = true;
      return Optional.of(
          new SequenceInputStream(
              new ByteArrayInputStream(head), new TranslatingInputStream(in, key)));
    } catch (StorageException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw GcsErrors.translate("opening blob " + key, e);
    } catch (IOException e) {
      if (e.getCause() instanceof StorageException se) {
        if (se.getCode() == 404) {
          return Optional.empty();
        }
        throw GcsErrors.translate("opening blob " + key, se);
      }
      throw new UnavailableException("opening blob " + key + " failed", e);
    } finally {
      if (!handedOver) {
        channel.close();
      }
    }
  }

  @Override
  public void delete(String key) {
    try {
      storage.delete(id(key));
    } catch (StorageException e) {
      throw GcsErrors.translate("deleting blob " + key, e);
    }
  }

  @Override
  public Stream<BlobInfo> list(String keyPrefix) {
    if (!keyPrefix.isEmpty() && !KEY.matcher(keyPrefix).matches()) {
      throw new InvalidRequestException("invalid blob key prefix '" + keyPrefix + "'");
    }
    try {
      var page = storage.list(bucket, Storage.BlobListOption.prefix(prefix + keyPrefix));
      return StreamSupport.stream(page.iterateAll().spliterator(), false)
          .map(
              b ->
                  new BlobInfo(
                      b.getName().substring(prefix.length()),
                      b.getSize() == null ? 0 : b.getSize(),
                      updated(b)));
    } catch (StorageException e) {
      throw GcsErrors.translate("listing blobs under " + keyPrefix, e);
    }
  }

  private static Instant updated(Blob b) {
    if (b.getUpdateTimeOffsetDateTime() != null) {
      return b.getUpdateTimeOffsetDateTime().toInstant();
    }
    return b.getCreateTimeOffsetDateTime() != null
        ? b.getCreateTimeOffsetDateTime().toInstant()
        : Instant.EPOCH;
  }

  private BlobId id(String key) {
    if (key == null || !KEY.matcher(key).matches()) {
      throw new InvalidRequestException(
          "invalid blob key '" + key + "': 1 to 512 characters of [A-Za-z0-9/._=-]");
    }
    return BlobId.of(bucket, prefix + key);
  }

  @Override
  public String toString() {
    return "gs://" + bucket + "/" + prefix;
  }

  /** Turns the client's wrapped storage errors during reads into Stowage exceptions. */
  private static final class TranslatingInputStream extends java.io.FilterInputStream {
    private final String key;

    TranslatingInputStream(InputStream in, String key) {
      super(in);
      this.key = key;
    }

    @Override
    public int read() throws IOException {
      try {
        return super.read();
      } catch (StorageException e) {
        throw GcsErrors.translate("reading blob " + key, e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return super.read(b, off, len);
      } catch (StorageException e) {
        throw GcsErrors.translate("reading blob " + key, e);
      }
    }
  }
}
