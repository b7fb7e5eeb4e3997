package dev.stowage.dynamodb;

import dev.stowage.s3.S3BlobStore;
import dev.stowage.test.Emulators;
import dev.stowage.testkit.ConformanceKit;
import dev.stowage.testkit.DriverFixture;
import dev.stowage.testkit.Scale;

/**
 * The whole conformance kit against DynamoDB Local and S3Proxy in this JVM. The emulators are
 * shared by every test class of the JVM ({@link Emulators}) and stopped when the test session ends;
 * the fixture closes its own driver and blob store.
 */
class DynamoDbConformanceTest extends ConformanceKit {
  @Override
  protected DriverFixture createFixture() {
    Emulators e = Emulators.shared();
    DynamoDbDriver driver = DynamoDbDriver.create(e.dynamoDb().client());
    S3BlobStore blobs =
        S3BlobStore.builder()
            .client(e.s3().client())
            .bucket(e.s3().newBucket())
            .prefix("conformance")
            .build();
    // Native indexes are GSIs the application creates: here with the table, through the raw client.
    return DriverFixture.of(
        driver,
        blobs,
        scale(),
        null,
        layout ->
            NativeTables.create(
                e.dynamoDb().client(), driver.physicalTableName(layout.ref()), layout));
  }

  /**
   * The kit at full size (10,000 items paged at sizes 1, 7 and 100, 16 racing threads, 16 × 500
   * increments, a 10,000-item delete job) takes about two minutes on DynamoDB Local; only the
   * number of generated round-trip samples is lowered.
   */
  static Scale scale() {
    return Scale.full().withRoundTripSamples(50);
  }
}
