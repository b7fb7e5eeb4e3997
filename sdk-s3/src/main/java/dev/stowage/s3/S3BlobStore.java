package dev.stowage.s3;

import dev.stowage.InvalidRequestException;
import dev.stowage.overflow.BlobStore;
import dev.stowage.s3.internal.MultipartUploader;
import dev.stowage.s3.internal.S3Errors;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A {@link BlobStore} on Amazon S3 (or any S3-compatible service): blobs live in one bucket under
 * an optional key prefix, which is how namespaces and applications share a bucket.
 *
 * <p>Blobs up to the multipart threshold are written with one PutObject; larger ones with a
 * multipart upload in parts of {@link Builder#partSize} bytes (one part in memory at a time,
 * aborted on failure). Reads stream the object; {@link #open(String, long, long)} reads a byte
 * range. {@link #deleteAll} uses DeleteObjects in batches of 1000.
 *
 * <p>Errors: a missing bucket is a {@link dev.stowage.NotFoundException}, SlowDown/503 a {@link
 * dev.stowage.ThrottledException}, other server errors and I/O failures {@link
 * dev.stowage.UnavailableException}, rejected requests {@link InvalidRequestException}. Never
 * retries. Thread-safe; arguments must not be null. {@link #close()} closes the client only if the
 * store built it.
 */
public final class S3BlobStore implements BlobStore {
  /** Most keys per DeleteObjects call. */
  static final int DELETE_BATCH = 1000;

  /** Most keys per ListObjectsV2 page. */
  static final int LIST_PAGE = 1000;

  private final S3Client client;
  private final boolean ownsClient;
  private final String bucket;
  private final String prefix;
  private final long multipartThreshold;
  private final MultipartUploader uploader;
  private final int deleteBatch;
  private final int listPage;

  private S3BlobStore(Builder b, S3Client client, boolean ownsClient) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.bucket = b.bucket;
    this.prefix = b.prefix;
    this.multipartThreshold = b.multipartThreshold;
    this.uploader = new MultipartUploader(client, b.partSize);
    this.deleteBatch = b.deleteBatch;
    this.listPage = b.listPage;
  }

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** The bucket. */
  public String bucket() {
    return bucket;
  }

  /** The key prefix ("" or ending in {@code /}). */
  public String prefix() {
    return prefix;
  }

  @Override
  public void put(String key, InputStream data, long length) {
    String objectKey = prefix + S3Errors.validateKey(key);
    if (length < 0) {
      throw new InvalidRequestException("blob " + key + ": negative length " + length);
    }
    if (length > multipartThreshold) {
      uploader.upload(bucket, objectKey, data, length);
      return;
    }
    try {
      client.putObject(
          b -> b.bucket(bucket).key(objectKey).contentLength(length),
          RequestBody.fromInputStream(data, length));
    } catch (SdkException e) {
      throw S3Errors.translate("PutObject " + objectKey, e);
    }
  }

  @Override
  public Optional<InputStream> open(String key) {
    String objectKey = prefix + S3Errors.validateKey(key);
    try {
      return Optional.of(client.getObject(b -> b.bucket(bucket).key(objectKey)));
    } catch (NoSuchKeyException missing) {
      return Optional.empty();
    } catch (SdkException e) {
      throw S3Errors.translate("GetObject " + objectKey, e);
    }
  }

  /**
   * Opens {@code length} bytes of a blob starting at {@code offset} (fewer if the blob ends first);
   * the caller closes the stream.
   *
   * @return empty if there is no blob under {@code key}
   */
  public Optional<InputStream> open(String key, long offset, long length) {
    if (offset < 0 || length < 1) {
      throw new InvalidRequestException("invalid range: offset " + offset + ", length " + length);
    }
    String objectKey = prefix + S3Errors.validateKey(key);
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    try {
      return Optional.of(client.getObject(b -> b.bucket(bucket).key(objectKey).range(range)));
    } catch (NoSuchKeyException missing) {
      return Optional.empty();
    } catch (SdkException e) {
      throw S3Errors.translate("GetObject " + objectKey + " " + range, e);
    }
  }

  @Override
  public void delete(String key) {
    String objectKey = prefix + S3Errors.validateKey(key);
    try {
      client.deleteObject(b -> b.bucket(bucket).key(objectKey));
    } catch (SdkException e) {
      throw S3Errors.translate("DeleteObject " + objectKey, e);
    }
  }

  @Override
  public void deleteAll(Collection<String> keys) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(keys));
    for (int from = 0; from < all.size(); from += deleteBatch) {
      List<ObjectIdentifier> ids = new ArrayList<>();
      for (String k : all.subList(from, Math.min(all.size(), from + deleteBatch))) {
        ids.add(ObjectIdentifier.builder().key(prefix + S3Errors.validateKey(k)).build());
      }
      DeleteObjectsResponse resp;
      try {
        resp = client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(ids).quiet(true)));
      } catch (SdkException e) {
        throw S3Errors.translate("DeleteObjects in " + bucket, e);
      }
      List<String> failed = new ArrayList<>();
      for (S3Error err : resp.errors()) {
        if (!"NoSuchKey".equals(err.code())) {
          failed.add(err.key() + " (" + err.code() + ": " + err.message() + ")");
        }
      }
      if (!failed.isEmpty()) {
        throw new dev.stowage.UnavailableException(
            "DeleteObjects in " + bucket + " failed for " + failed.size() + " keys: " + failed);
      }
    }
  }

  @Override
  public Stream<BlobInfo> list(String keyPrefix) {
    Objects.requireNonNull(keyPrefix, "prefix");
    String full = prefix + keyPrefix;
    Iterator<S3Object> objects;
    try {
      objects =
          client
              .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(full).maxKeys(listPage))
              .contents()
              .iterator();
    } catch (SdkException e) {
      throw S3Errors.translate("ListObjectsV2 " + full, e);
    }
    Iterator<BlobInfo> infos =
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            try {
              return objects.hasNext();
            } catch (SdkException e) {
              throw S3Errors.translate("ListObjectsV2 " + full, e);
            }
          }

          @Override
          public BlobInfo next() {
            S3Object o;
            try {
              o = objects.next();
            } catch (SdkException e) {
              throw S3Errors.translate("ListObjectsV2 " + full, e);
            }
            Instant modified = o.lastModified() == null ? Instant.EPOCH : o.lastModified();
            long size = o.size() == null ? 0 : o.size();
            return new BlobInfo(o.key().substring(prefix.length()), size, modified);
          }
        };
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(infos, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }

  /** Builds an {@link S3BlobStore}. Not thread-safe. */
  public static final class Builder {
    /** S3's smallest part size (except the last part). */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;

    private S3Client client;
    private Region region;
    private URI endpoint;
    private AwsCredentialsProvider credentials;
    private boolean forcePathStyle;
    private String bucket;
    private String prefix = "";
    private int partSize = 8 * 1024 * 1024;
    private long multipartThreshold = 8 * 1024 * 1024;
    private int deleteBatch = DELETE_BATCH;
    private int listPage = LIST_PAGE;

    private Builder() {}

    /** Smaller DeleteObjects batches and list pages, so tests cross batch boundaries cheaply. */
    Builder batchSizesForTests(int deleteBatch, int listPage) {
      this.deleteBatch = deleteBatch;
      this.listPage = listPage;
      return this;
    }

    /** Use the application's client; the store does not close it. */
    public Builder client(S3Client client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** Region for a client the store builds. */
    public Builder region(Region region) {
      this.region = Objects.requireNonNull(region, "region");
      return this;
    }

    /** Endpoint override for a client the store builds (S3-compatible services). */
    public Builder endpoint(URI endpoint) {
      this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
      return this;
    }

    /** Credentials for a client the store builds; default: the SDK's default chain. */
    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Path-style addressing for a client the store builds (most S3-compatible services). */
    public Builder forcePathStyle(boolean forcePathStyle) {
      this.forcePathStyle = forcePathStyle;
      return this;
    }

    /** The bucket (required; it must exist). */
    public Builder bucket(String bucket) {
      this.bucket = Objects.requireNonNull(bucket, "bucket");
      return this;
    }

    /** A key prefix for every blob, such as {@code stowage/prod}; a trailing {@code /} is added. */
    public Builder prefix(String prefix) {
      Objects.requireNonNull(prefix, "prefix");
      if (!prefix.isEmpty()) {
        S3Errors.validateKey(prefix);
      }
      this.prefix = prefix.isEmpty() || prefix.endsWith("/") ? prefix : prefix + "/";
      return this;
    }

    /** Size of each multipart part; at least 5 MiB. Default 8 MiB. */
    public Builder partSize(int bytes) {
      if (bytes < MIN_PART_SIZE) {
        throw new IllegalArgumentException("S3 parts must be at least 5 MiB");
      }
      this.partSize = bytes;
      return this;
    }

    /** Blobs larger than this use a multipart upload. Default 8 MiB. */
    public Builder multipartThreshold(long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException("multipart threshold must be positive");
      }
      this.multipartThreshold = bytes;
      return this;
    }

    /**
     * The store. A client the store builds has the SDK's own retries turned off, like the driver's:
     * Stowage's core retries what is retryable.
     *
     * @throws IllegalStateException without a bucket, or without both a client and a region
     */
    public S3BlobStore build() {
      if (bucket == null) {
        throw new IllegalStateException("an S3 blob store needs a bucket");
      }
      if (client != null) {
        return new S3BlobStore(this, client, false);
      }
      if (region == null) {
        throw new IllegalStateException("give the blob store an S3Client or a region");
      }
      S3ClientBuilder b =
          S3Client.builder()
              .region(region)
              .forcePathStyle(forcePathStyle)
              .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
      if (endpoint != null) {
        b.endpointOverride(endpoint);
      }
      if (credentials != null) {
        b.credentialsProvider(credentials);
      }
      return new S3BlobStore(this, b.build(), true);
    }
  }
}
