/** The Azure Table Storage driver (the Azure Blob store for overflow is dev.stowage.azure.blob). */
module dev.stowage.azure {
  requires transitive dev.stowage;
  requires org.slf4j;
  // The driver takes the application's own client.
  requires transitive com.azure.data.tables;
  requires transitive com.azure.core;

  exports dev.stowage.azure;
}
