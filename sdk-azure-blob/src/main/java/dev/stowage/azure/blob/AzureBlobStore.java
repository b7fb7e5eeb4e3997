package dev.stowage.azure.blob;

import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.models.ParallelTransferOptions;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import dev.stowage.InvalidRequestException;
import dev.stowage.azure.blob.internal.BlobErrors;
import dev.stowage.overflow.BlobStore;
import java.io.InputStream;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A {@link BlobStore} on an Azure Blob Storage container (or Azurite), under a key prefix.
 *
 * <p>Blobs larger than 4 MiB are uploaded as blocks of 4 MiB (two in flight); reads are streamed.
 * Thread-safe. Native errors become Stowage exceptions ({@code 503} → {@link
 * dev.stowage.ThrottledException}, I/O and {@code 5xx} → {@link dev.stowage.UnavailableException},
 * a missing container → {@link dev.stowage.NotFoundException}). Closing does nothing: the container
 * client belongs to the caller.
 */
public final class AzureBlobStore implements BlobStore {
  private static final long BLOCK = 4L * 1024 * 1024;
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9/._=-]{0,512}");

  private final BlobContainerClient container;
  private final String prefix;

  private AzureBlobStore(BlobContainerClient container, String prefix) {
    this.container = Objects.requireNonNull(container, "container");
    this.prefix = Objects.requireNonNull(prefix, "prefix");
    if (!KEY.matcher(prefix).matches()) {
      throw new IllegalArgumentException("blob prefix must match " + KEY.pattern());
    }
  }

  /**
   * A store on an existing container.
   *
   * @param container the container client; not null
   * @param prefix prepended to every key (for example {@code "stowage/prod/"}); not null, may be
   *     empty
   */
  public static AzureBlobStore of(BlobContainerClient container, String prefix) {
    return new AzureBlobStore(container, prefix);
  }

  /**
   * A store on container {@code containerName} of the account in {@code connectionString}, creating
   * the container if it is missing; the SDK's own retries are switched off.
   */
  public static AzureBlobStore fromConnectionString(
      String connectionString, String containerName, String prefix) {
    BlobContainerClient container =
        new BlobServiceClientBuilder()
            .connectionString(Objects.requireNonNull(connectionString, "connectionString"))
            .retryOptions(
                new RetryOptions(new FixedDelayOptions(0, java.time.Duration.ofMillis(1))))
            .buildClient()
            .getBlobContainerClient(containerName);
    try {
      container.createIfNotExists();
    } catch (RuntimeException e) {
      throw BlobErrors.translate(e, "creating blob container " + containerName);
    }
    return new AzureBlobStore(container, prefix);
  }

  private BlobClient blob(String key) {
    if (key == null || key.isEmpty() || !KEY.matcher(key).matches()) {
      throw new InvalidRequestException("invalid blob key '" + key + "'");
    }
    return container.getBlobClient(prefix + key);
  }

  @Override
  public void put(String key, InputStream data, long length) {
    BlobClient blob = blob(key);
    try {
      ParallelTransferOptions transfer =
          new ParallelTransferOptions()
              .setBlockSizeLong(BLOCK)
              .setMaxSingleUploadSizeLong(BLOCK)
              .setMaxConcurrency(2);
      blob.uploadWithResponse(
          new BlobParallelUploadOptions(data, length).setParallelTransferOptions(transfer),
          null,
          Context.NONE);
    } catch (RuntimeException e) {
      throw BlobErrors.translate(e, "uploading blob " + key);
    }
  }

  @Override
  public Optional<InputStream> open(String key) {
    BlobClient blob = blob(key);
    try {
      return Optional.of(blob.openInputStream());
    } catch (RuntimeException e) {
      if (BlobErrors.status(e) == 404 && !BlobErrors.code(e).equals("ContainerNotFound")) {
        return Optional.empty();
      }
      throw BlobErrors.translate(e, "opening blob " + key);
    }
  }

  @Override
  public void delete(String key) {
    BlobClient blob = blob(key);
    try {
      blob.deleteIfExists();
    } catch (RuntimeException e) {
      throw BlobErrors.translate(e, "deleting blob " + key);
    }
  }

  @Override
  public Stream<BlobInfo> list(String keyPrefix) {
    String what = "listing blobs under " + keyPrefix;
    Spliterator<BlobItem> pages;
    try {
      ListBlobsOptions options = new ListBlobsOptions().setPrefix(prefix + keyPrefix);
      pages = container.listBlobs(options, null).spliterator();
    } catch (RuntimeException e) {
      throw BlobErrors.translate(e, what);
    }
    // The pages are fetched as the stream is consumed: translate their errors there too, and
    // only theirs (not the consumer's).
    Spliterator<BlobInfo> infos =
        new Spliterators.AbstractSpliterator<>(
            Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL) {
          @Override
          public boolean tryAdvance(Consumer<? super BlobInfo> action) {
            BlobItem[] next = new BlobItem[1];
            boolean more;
            try {
              more = pages.tryAdvance(item -> next[0] = item);
            } catch (RuntimeException e) {
              throw BlobErrors.translate(e, what);
            }
            if (more) {
              action.accept(info(next[0]));
            }
            return more;
          }
        };
    return StreamSupport.stream(infos, false);
  }

  private BlobInfo info(BlobItem item) {
    Instant modified =
        item.getProperties().getLastModified() == null
            ? Instant.EPOCH
            : item.getProperties().getLastModified().toInstant();
    return new BlobInfo(
        item.getName().substring(prefix.length()),
        item.getProperties().getContentLength(),
        modified);
  }
}
