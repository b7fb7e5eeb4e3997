/** The Azure Table Storage driver (the Azure Blob store for overflow is dev.stowage.azure.blob). */
module dev.stowage.azure {
  requires transitive dev.stowage;
  requires org.slf4j;
  // The driver takes the application's own client.
  requires transitive com.azure.data.tables;
  requires transitive com.azure.core;
  // azure-core loads Jackson's XML module by reflection to read the XML error bodies the storage
  // front end sends; required here so the module path resolves it.
  requires com.fasterxml.jackson.dataformat.xml;

  exports dev.stowage.azure;
  // The segment plan benchmark times the driver's two planners on one table.
  exports dev.stowage.azure.internal to
      dev.stowage.bench;
}
