/** The Azure Blob Storage blob store for overflow. */
module dev.stowage.azure.blob {
  requires transitive dev.stowage;
  // The blob store takes the application's own client.
  requires transitive com.azure.storage.blob;
  requires transitive com.azure.core;

  exports dev.stowage.azure.blob;
}
