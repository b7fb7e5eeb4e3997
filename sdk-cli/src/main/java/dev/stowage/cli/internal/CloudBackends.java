package dev.stowage.cli.internal;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.overflow.BlobStore;
import dev.stowage.s3.S3BlobStore;
import dev.stowage.spi.StorageDriver;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** Drivers and blob stores of the cloud backends, by URI scheme (see docs/cli.md). */
final class CloudBackends {
  static final String AZURE_ENV = "AZURE_STORAGE_CONNECTION_STRING";

  private CloudBackends() {}

  static StorageDriver driver(StoreLocation loc) {
    try {
      return switch (loc.scheme()) {
        case "dynamodb" -> dynamo(loc);
        case "datastore" -> datastore(loc);
        case "azure" -> {
          loc.allowOnly("connection", "namespace");
          yield AzureTablesDriver.fromConnectionString(loc.required("connection", AZURE_ENV));
        }
        default ->
            throw new CliException(
                "unknown store scheme '"
                    + loc.scheme()
                    + "://' in "
                    + loc.redacted()
                    + "; known: local://, memory://, dynamodb://, datastore://, azure://");
      };
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CliException("cannot open " + loc.redacted() + ": " + e.getMessage());
    }
  }

  private static StorageDriver dynamo(StoreLocation loc) {
    loc.allowOnly("region", "endpoint", "namespace", "accessKey", "secretKey");
    DynamoDbDriver.Builder b =
        DynamoDbDriver.builder()
            .region(
                Region.of(
                    loc.param("region", System.getenv().getOrDefault("AWS_REGION", "us-east-1"))));
    if (loc.params().containsKey("endpoint")) {
      b.endpoint(URI.create(loc.param("endpoint", null)));
    }
    if (loc.params().containsKey("accessKey")) {
      b.credentials(
          StaticCredentialsProvider.create(
              AwsBasicCredentials.create(
                  loc.param("accessKey", null), loc.required("secretKey", null))));
    }
    return b.build();
  }

  private static StorageDriver datastore(StoreLocation loc) {
    loc.allowOnly("project", "emulator", "database", "namespace");
    DatastoreDriver.Builder b = DatastoreDriver.builder();
    String project = loc.param("project", System.getenv("GOOGLE_CLOUD_PROJECT"));
    if (project != null) {
      b.projectId(project);
    }
    if (loc.params().containsKey("emulator")) {
      if (project == null) {
        b.projectId("emulator");
      }
      b.emulatorHost(loc.param("emulator", null));
    }
    if (loc.params().containsKey("database")) {
      b.databaseId(loc.param("database", null));
    }
    return b.build();
  }

  static BlobStore blobStore(StoreLocation loc) {
    try {
      return switch (loc.scheme()) {
        case "s3" -> s3(loc);
        case "gcs" -> gcs(loc);
        case "azblob" -> {
          loc.allowOnly("connection");
          yield AzureBlobStore.fromConnectionString(
              loc.required("connection", AZURE_ENV), bucket(loc), prefix(loc));
        }
        default ->
            throw new CliException(
                "unknown blob store scheme '"
                    + loc.scheme()
                    + "://' in "
                    + loc.redacted()
                    + "; known: memory://, file://, s3://, gcs://, azblob://");
      };
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CliException("cannot open " + loc.redacted() + ": " + e.getMessage());
    }
  }

  private static BlobStore s3(StoreLocation loc) {
    loc.allowOnly("region", "endpoint", "pathStyle", "accessKey", "secretKey");
    S3BlobStore.Builder b =
        S3BlobStore.builder()
            .bucket(bucket(loc))
            .prefix(prefix(loc))
            .region(
                Region.of(
                    loc.param("region", System.getenv().getOrDefault("AWS_REGION", "us-east-1"))))
            .forcePathStyle(Boolean.parseBoolean(loc.param("pathStyle", "false")));
    if (loc.params().containsKey("endpoint")) {
      b.endpoint(URI.create(loc.param("endpoint", null)));
    }
    if (loc.params().containsKey("accessKey")) {
      b.credentials(
          StaticCredentialsProvider.create(
              AwsBasicCredentials.create(
                  loc.param("accessKey", null), loc.required("secretKey", null))));
    }
    return b.build();
  }

  private static BlobStore gcs(StoreLocation loc) {
    loc.allowOnly("project", "host");
    StorageOptions.Builder b = StorageOptions.newBuilder();
    String project = loc.param("project", System.getenv("GOOGLE_CLOUD_PROJECT"));
    if (project != null) {
      b.setProjectId(project);
    }
    if (loc.params().containsKey("host")) {
      b.setHost(loc.param("host", null)).setCredentials(NoCredentials.getInstance());
    }
    Storage storage = b.build().getService();
    return GcsBlobStore.of(storage, bucket(loc), prefix(loc));
  }

  private static String bucket(StoreLocation loc) {
    if (loc.authority().isEmpty()) {
      throw new CliException(loc.redacted() + " names no bucket or container");
    }
    return loc.authority();
  }

  private static String prefix(StoreLocation loc) {
    String p = loc.path();
    return p.isEmpty() || p.endsWith("/") ? p : p + "/";
  }

  static void resetMemory() {}
}
