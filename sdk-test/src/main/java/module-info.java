/**
 * Test support for applications' integration tests: a JUnit 5 extension ({@code @WithEmulators})
 * that starts DynamoDB Local, S3Proxy, the Firestore emulator in Datastore mode and Azurite on free
 * ports and hands tests a ready {@code Stowage} per backend.
 *
 * <p>Exports only {@code dev.stowage.test}. Every backend is optional: a user has the driver
 * modules and emulators they use. The drivers, DynamoDB Local and S3Proxy are reached by name
 * (neither emulator jar can be read as a module), the cloud clients that appear in this API are
 * static requirements.
 */
module dev.stowage.test {
  requires transitive dev.stowage;
  requires transitive org.junit.jupiter.api;
  // Only for the session listener; every JUnit Platform runner has the launcher.
  requires static org.junit.platform.launcher;

  // The clients the emulators hand out (DynamoDbLocal.client(), S3Emulator.client(),
  // DatastoreEmulator.client(), Emulators.gcs()).
  requires static transitive software.amazon.awssdk.services.dynamodb;
  requires static transitive software.amazon.awssdk.services.s3;
  requires static software.amazon.awssdk.core;
  requires static software.amazon.awssdk.regions;
  requires static software.amazon.awssdk.auth;
  requires static software.amazon.awssdk.awscore;
  requires static transitive google.cloud.datastore;
  requires static transitive google.cloud.storage;
  requires static google.cloud.core;
  requires static google.cloud.nio;

  exports dev.stowage.test;

  // On the class path META-INF/services registers the listener; on the module path this does.
  provides org.junit.platform.launcher.LauncherSessionListener with
      dev.stowage.test.internal.SessionListener;
}
