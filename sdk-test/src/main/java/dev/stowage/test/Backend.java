package dev.stowage.test;

/**
 * A backend whose emulators {@link WithEmulators} starts, and for which it gives tests a ready
 * {@code Stowage}.
 */
public enum Backend {
  /**
   * Amazon DynamoDB on DynamoDB Local, in the test JVM; with S3Proxy (also in the JVM) as the blob
   * store when {@code dev.stowage:sdk-s3} is on the class path. Needs {@code
   * dev.stowage:sdk-dynamodb} and {@code com.amazonaws:DynamoDBLocal} (and {@code org.gaul:s3proxy}
   * with sdk-s3) on the test class path.
   */
  DYNAMODB,
  /**
   * Google Cloud Datastore on the Firestore emulator in Datastore mode, a child process; with the
   * in-memory Cloud Storage fake of {@code com.google.cloud:google-cloud-nio} as the blob store
   * when {@code dev.stowage:sdk-gcs} is on the class path. Needs {@code dev.stowage:sdk-datastore}
   * and the emulator (Debian package {@code google-cloud-cli-firestore-emulator}).
   */
  DATASTORE,
  /**
   * Azure Table Storage on Azurite, a Node.js child process; with Azurite's blob service as the
   * blob store when {@code dev.stowage:sdk-azure-blob} is on the class path. Needs {@code
   * dev.stowage:sdk-azure} and the npm package {@code azurite}.
   */
  AZURE
}
