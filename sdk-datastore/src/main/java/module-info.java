/** The Google Cloud Datastore driver and the Cloud Storage blob store for overflow. */
module dev.stowage.datastore {
  requires transitive dev.stowage;
  // The driver and blob store take the application's own clients.
  requires transitive google.cloud.datastore;
  requires transitive google.cloud.storage;
  requires transitive google.cloud.core;
  requires gax;
  requires google.cloud.core.http;
  requires org.slf4j;

  exports dev.stowage.datastore;
}
