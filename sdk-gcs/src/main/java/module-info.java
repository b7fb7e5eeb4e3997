/** The Google Cloud Storage blob store for overflow. */
module dev.stowage.gcs {
  requires transitive dev.stowage;
  // The blob store takes the application's own client.
  requires transitive google.cloud.storage;
  requires transitive google.cloud.core;
  requires gax;

  exports dev.stowage.gcs;
}
