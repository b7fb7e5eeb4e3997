/** The Azure Table Storage driver and the Azure Blob store for overflow. */
module dev.stowage.azure {
  requires transitive dev.stowage;
  requires org.slf4j;
  // The driver and blob store take the application's own clients.
  requires transitive com.azure.data.tables;
  requires transitive com.azure.storage.blob;
  requires transitive com.azure.core;

  exports dev.stowage.azure;
}
