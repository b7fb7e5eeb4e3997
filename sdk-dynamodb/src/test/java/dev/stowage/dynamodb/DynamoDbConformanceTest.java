package dev.stowage.dynamodb;

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
    Emulators e = Emulators.get();
    DynamoDbDriver driver = DynamoDbDriver.create(e.dynamo());
    S3BlobStore blobs =
        S3BlobStore.builder().client(e.s3()).bucket(e.newBucket()).prefix("conformance").build();
    return DriverFixture.of(driver, blobs, scale(), null);
  }

  /**
   * DynamoDB Local answers each request in about a millisecond on one thread, and the page-size-1
   * walk alone is one Query per item: the heavy contracts run at their floors so the module's tests
   * stay within a few minutes.
   */
  static Scale scale() {
    return Scale.full()
        .withRoundTripSamples(50)
        .withRaceThreads(8)
        .withCounter(4, 50)
        .withPaging(1_000, 300)
        .withDeleteItems(1_000);
  }
}
