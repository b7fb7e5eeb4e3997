package dev.stowage.test;

import com.google.cloud.storage.Storage;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.Stowage;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.test.internal.Reflect;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The emulators of one test run (one JVM), each started on first use on free ports and shared from
 * then on, and stores on them. {@link WithEmulators} uses this; tests that JUnit Jupiter does not
 * run (jqwik properties, static fixtures) can call {@link #shared()} directly.
 *
 * <p>Everything started is stopped when the JUnit Platform test run ends, or at JVM exit at the
 * latest; the child processes (Firestore emulator, Azurite) also exit by themselves if the JVM is
 * killed. A method that cannot start its emulator throws {@link EmulatorStartException} saying what
 * to install. Thread-safe.
 */
public final class Emulators {
  private static final String SDK_DYNAMODB = "dev.stowage.dynamodb.DynamoDbDriver";
  private static final String SDK_S3 = "dev.stowage.s3.S3BlobStore";
  private static final String SDK_DATASTORE = "dev.stowage.datastore.DatastoreDriver";
  private static final String SDK_GCS = "dev.stowage.gcs.GcsBlobStore";
  private static final String SDK_AZURE = "dev.stowage.azure.AzureTablesDriver";
  private static final String SDK_AZURE_BLOB = "dev.stowage.azure.blob.AzureBlobStore";
  private static final String GCS_FAKE =
      "com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper";
  private static final String BUCKET = "stowage";

  private static final Emulators SHARED = new Emulators();
  private static boolean hookAdded;

  private final AtomicLong namespaces = new AtomicLong();
  private DynamoDbLocal dynamoDb;
  private S3Emulator s3;
  private String s3Bucket;
  private DatastoreEmulator datastore;
  private Storage gcs;
  private Azurite azurite;

  private Emulators() {}

  /**
   * The emulators of this test run.
   *
   * @return the one instance per JVM
   */
  public static Emulators shared() {
    return SHARED;
  }

  /**
   * DynamoDB Local, started on first use.
   *
   * @return the running emulator
   * @throws EmulatorStartException if DynamoDB Local or the AWS SDK is not on the class path
   */
  public synchronized DynamoDbLocal dynamoDb() {
    if (dynamoDb == null) {
      Reflect.require(DynamoDbLocal.SERVER_RUNNER, DynamoDbLocal.INSTALL);
      Reflect.require(
          "software.amazon.awssdk.services.dynamodb.DynamoDbClient",
          "Add dev.stowage:sdk-dynamodb (or software.amazon.awssdk:dynamodb).");
      onExit();
      dynamoDb = DynamoDbLocal.start();
    }
    return dynamoDb;
  }

  /**
   * S3Proxy, an S3-compatible server, started on first use.
   *
   * @return the running server
   * @throws EmulatorStartException if S3Proxy or the AWS SDK is not on the class path
   */
  public synchronized S3Emulator s3() {
    if (s3 == null) {
      Reflect.require(S3Emulator.S3_PROXY, S3Emulator.INSTALL);
      Reflect.require(
          "software.amazon.awssdk.services.s3.S3Client",
          "Add dev.stowage:sdk-s3 (or software.amazon.awssdk:s3).");
      onExit();
      s3 = S3Emulator.start();
    }
    return s3;
  }

  /**
   * The Firestore emulator in Datastore mode, started on first use.
   *
   * @return the running emulator
   * @throws EmulatorStartException if the emulator is not installed or does not start
   */
  public synchronized DatastoreEmulator datastore() {
    if (datastore == null) {
      onExit();
      datastore = DatastoreEmulator.startFirestore();
    }
    return datastore;
  }

  /**
   * An in-memory fake of the Cloud Storage client ({@code LocalStorageHelper} of {@code
   * com.google.cloud:google-cloud-nio}), shared by the test run. There is no Cloud Storage server
   * to run offline; the fake creates buckets implicitly and does not implement batch deletes or
   * preconditions, which {@code GcsBlobStore} does not use.
   *
   * @return the fake client
   * @throws EmulatorStartException if google-cloud-nio is not on the class path
   */
  public synchronized Storage gcs() {
    if (gcs == null) {
      Reflect.require(
          GCS_FAKE,
          "Add com.google.cloud:google-cloud-nio (version from the Google libraries-bom that"
              + " dev.stowage:stowage-bom imports) with test scope: its in-memory Cloud Storage"
              + " fake holds the overflow blobs.");
      gcs = LocalStorageHelper.customOptions(false).getService();
    }
    return gcs;
  }

  /**
   * Azurite (Azure blob and table services), started on first use.
   *
   * @return the running emulator
   * @throws EmulatorStartException if Node.js or Azurite is not installed or does not start
   */
  public synchronized Azurite azurite() {
    if (azurite == null) {
      onExit();
      azurite = Azurite.start();
    }
    return azurite;
  }

  /**
   * Starts what {@code backend} needs: its emulator, and its blob store's when the blob store
   * module is on the class path.
   *
   * @param backend the backend
   * @throws EmulatorStartException if something cannot start
   */
  public void start(Backend backend) {
    switch (backend) {
      case DYNAMODB -> {
        dynamoDb();
        if (Reflect.present(SDK_S3)) {
          s3();
        }
      }
      case DATASTORE -> {
        datastore();
        if (Reflect.present(SDK_GCS)) {
          gcs();
        }
      }
      case AZURE -> azurite();
    }
  }

  /**
   * A store builder on {@code backend}'s emulator, in the root namespace: the driver, and the blob
   * store when its module is on the class path (S3 on S3Proxy, GCS on the in-memory fake, Azure
   * Blob on Azurite). Add codecs, a namespace or a retry policy, then build; closing the store does
   * not stop the emulators.
   *
   * @param backend the backend
   * @return a builder with the driver and blob store set
   * @throws EmulatorStartException if the driver module or an emulator is missing
   */
  public Stowage.Builder builder(Backend backend) {
    start(backend);
    Stowage.Builder b = Stowage.builder(driver(backend));
    BlobStore blobs = blobStore(backend);
    return blobs == null ? b : b.blobStore(blobs);
  }

  /**
   * A store on {@code backend}'s emulator in a namespace no other store of this run uses, so its
   * tables start empty. The caller closes it.
   *
   * @param backend the backend
   * @return a new store
   * @throws EmulatorStartException if the driver module or an emulator is missing
   */
  public Stowage stowage(Backend backend) {
    return builder(backend).namespace(newNamespace()).build();
  }

  /**
   * A namespace name not returned before in this JVM.
   *
   * @return {@code t1}, {@code t2}, …
   */
  public String newNamespace() {
    return "t" + Long.toString(namespaces.incrementAndGet(), 36);
  }

  /** Stops every emulator that was started; the next use starts it again. Idempotent. */
  public static void stopAll() {
    SHARED.stopEverything();
  }

  private synchronized void stopEverything() {
    if (dynamoDb != null) {
      dynamoDb.stop();
      dynamoDb = null;
    }
    if (s3 != null) {
      s3.stop();
      s3 = null;
      s3Bucket = null;
    }
    if (datastore != null) {
      datastore.stop();
      datastore = null;
    }
    if (azurite != null) {
      azurite.stop();
      azurite = null;
    }
  }

  private StorageDriver driver(Backend backend) {
    return switch (backend) {
      case DYNAMODB -> {
        Reflect.require(SDK_DYNAMODB, "Add dev.stowage:sdk-dynamodb.");
        yield (StorageDriver)
            Reflect.callStatic(
                SDK_DYNAMODB,
                "create",
                new Class<?>[] {
                  Reflect.type("software.amazon.awssdk.services.dynamodb.DynamoDbClient")
                },
                dynamoDb().client());
      }
      case DATASTORE -> {
        Reflect.require(SDK_DATASTORE, "Add dev.stowage:sdk-datastore.");
        yield (StorageDriver)
            Reflect.callStatic(
                SDK_DATASTORE,
                "of",
                new Class<?>[] {Reflect.type("com.google.cloud.datastore.Datastore")},
                datastore().client());
      }
      case AZURE -> {
        Reflect.require(SDK_AZURE, "Add dev.stowage:sdk-azure.");
        yield (StorageDriver)
            Reflect.callStatic(
                SDK_AZURE,
                "fromConnectionString",
                new Class<?>[] {String.class},
                azurite().connectionString());
      }
    };
  }

  private BlobStore blobStore(Backend backend) {
    return switch (backend) {
      case DYNAMODB -> {
        if (!Reflect.present(SDK_S3)) {
          yield null;
        }
        Object b = Reflect.callStatic(SDK_S3, "builder", new Class<?>[0]);
        Reflect.call(
            b,
            "client",
            new Class<?>[] {Reflect.type("software.amazon.awssdk.services.s3.S3Client")},
            s3().client());
        Reflect.call(b, "bucket", new Class<?>[] {String.class}, s3Bucket());
        yield (BlobStore) Reflect.call(b, "build", new Class<?>[0]);
      }
      case DATASTORE ->
          Reflect.present(SDK_GCS)
              ? (BlobStore)
                  Reflect.callStatic(
                      SDK_GCS,
                      "of",
                      new Class<?>[] {
                        Reflect.type("com.google.cloud.storage.Storage"), String.class, String.class
                      },
                      gcs(),
                      BUCKET,
                      "")
              : null;
      case AZURE ->
          Reflect.present(SDK_AZURE_BLOB)
              ? (BlobStore)
                  Reflect.callStatic(
                      SDK_AZURE_BLOB,
                      "fromConnectionString",
                      new Class<?>[] {String.class, String.class, String.class},
                      azurite().connectionString(),
                      BUCKET,
                      "")
              : null;
    };
  }

  private synchronized String s3Bucket() {
    S3Emulator server = s3();
    if (s3Bucket == null) {
      s3Bucket = server.newBucket();
    }
    return s3Bucket;
  }

  private static synchronized void onExit() {
    if (!hookAdded) {
      hookAdded = true;
      Runtime.getRuntime()
          .addShutdownHook(new Thread(Emulators::stopAll, "stop-stowage-emulators"));
    }
  }

  /** The backends in a set, for the extension. */
  static Set<Backend> setOf(Backend[] backends) {
    return backends.length == 0 ? EnumSet.noneOf(Backend.class) : EnumSet.of(backends[0], backends);
  }
}
