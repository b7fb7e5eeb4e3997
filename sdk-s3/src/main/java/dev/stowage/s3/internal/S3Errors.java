package dev.stowage.s3.internal;

import dev.stowage.InvalidRequestException;
import dev.stowage.NotFoundException;
import dev.stowage.StowageException;
import dev.stowage.ThrottledException;
import dev.stowage.UnavailableException;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/** Translates S3 failures into Stowage's exception types, keeping the native cause. */
public final class S3Errors {
  private static final Pattern KEY = Pattern.compile("[A-Za-z0-9/._=-]{1,512}");

  private S3Errors() {}

  /** The Stowage exception for a failed S3 call. */
  public static StowageException translate(String what, SdkException e) {
    if (e instanceof NoSuchBucketException) {
      return new NotFoundException(what + ": bucket does not exist", e);
    }
    if (e instanceof AwsServiceException ase) {
      String code = ase.awsErrorDetails() == null ? null : ase.awsErrorDetails().errorCode();
      String msg = what + ": " + (code == null ? "" : code + ": ") + ase.getMessage();
      if (ase.isThrottlingException() || "SlowDown".equals(code) || ase.statusCode() == 503) {
        return new ThrottledException(msg, e);
      }
      if ("NoSuchBucket".equals(code)) {
        return new NotFoundException(msg, e);
      }
      if (ase.statusCode() >= 500) {
        return new UnavailableException(msg, e);
      }
      return new InvalidRequestException(msg, e);
    }
    return new UnavailableException(what + ": " + e.getMessage(), e);
  }

  /** Checks a blob key against the {@link dev.stowage.overflow.BlobStore} key rules. */
  public static String validateKey(String key) {
    if (key == null || !KEY.matcher(key).matches()) {
      throw new InvalidRequestException(
          "blob key '" + key + "' must be 1 to 512 characters of [A-Za-z0-9/._=-]");
    }
    return key;
  }
}
