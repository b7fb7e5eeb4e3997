/**
 * Migration between backends and namespaces, verification, dual-write cut-over and counting
 * decorators, over Stowage's public API and SPI only.
 */
module dev.stowage.migrate {
  requires transitive dev.stowage;
  requires org.slf4j;

  exports dev.stowage.migrate;
}
