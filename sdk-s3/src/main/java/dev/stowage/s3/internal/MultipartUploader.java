package dev.stowage.s3.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads a large blob in parts of a fixed size, holding one part in memory at a time; aborts the
 * upload on any failure so no parts linger.
 */
public final class MultipartUploader {
  private final S3Client client;
  private final int partSize;

  public MultipartUploader(S3Client client, int partSize) {
    this.client = client;
    this.partSize = partSize;
  }

  /** Uploads exactly {@code length} bytes of {@code data} to {@code bucket/objectKey}. */
  public void upload(String bucket, String objectKey, InputStream data, long length) {
    String uploadId;
    try {
      uploadId = client.createMultipartUpload(b -> b.bucket(bucket).key(objectKey)).uploadId();
    } catch (SdkException e) {
      throw S3Errors.translate("CreateMultipartUpload " + objectKey, e);
    }
    try {
      List<CompletedPart> parts = new ArrayList<>();
      byte[] buffer = new byte[partSize];
      long remaining = length;
      int partNumber = 1;
      while (remaining > 0) {
        int size = (int) Math.min(partSize, remaining);
        readFully(data, buffer, size, objectKey);
        final int number = partNumber;
        String etag =
            client
                .uploadPart(
                    b ->
                        b.bucket(bucket)
                            .key(objectKey)
                            .uploadId(uploadId)
                            .partNumber(number)
                            .contentLength((long) size),
                    RequestBody.fromByteBuffer(java.nio.ByteBuffer.wrap(buffer, 0, size)))
                .eTag();
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        remaining -= size;
        partNumber++;
      }
      client.completeMultipartUpload(
          b ->
              b.bucket(bucket)
                  .key(objectKey)
                  .uploadId(uploadId)
                  .multipartUpload(m -> m.parts(parts)));
    } catch (RuntimeException e) {
      abort(bucket, objectKey, uploadId, e);
      if (e instanceof SdkException se) {
        throw S3Errors.translate("multipart upload of " + objectKey, se);
      }
      throw e;
    }
  }

  private void abort(String bucket, String objectKey, String uploadId, RuntimeException cause) {
    try {
      client.abortMultipartUpload(b -> b.bucket(bucket).key(objectKey).uploadId(uploadId));
    } catch (SdkException e) {
      cause.addSuppressed(e);
    }
  }

  private static void readFully(InputStream in, byte[] buffer, int size, String key) {
    int off = 0;
    try {
      while (off < size) {
        int n = in.read(buffer, off, size - off);
        if (n < 0) {
          throw new InvalidRequestException(
              "blob " + key + ": the stream ended before the declared length");
        }
        off += n;
      }
    } catch (IOException e) {
      throw new UnavailableException("reading the data of blob " + key + " failed", e);
    }
  }
}
