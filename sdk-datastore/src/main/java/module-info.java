/**
 * The Google Cloud Datastore driver (the Cloud Storage blob store for overflow is dev.stowage.gcs).
 */
module dev.stowage.datastore {
  requires transitive dev.stowage;
  // The driver takes the application's own client.
  requires transitive google.cloud.datastore;
  requires transitive google.cloud.core;
  requires gax;
  requires google.cloud.core.http;
  requires org.slf4j;

  exports dev.stowage.datastore;
}
