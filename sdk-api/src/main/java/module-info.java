/**
 * Stowage's public API, core pipeline, codecs, overflow, cursors, driver SPI and in-memory driver.
 *
 * <p>Exports only API and SPI packages; the {@code internal} packages are the core's own and no
 * other module can read them.
 */
module dev.stowage {
  // Tink's Aead and KeysetHandle appear in the API (cursor keys, KeyProvider).
  requires transitive com.google.crypto.tink;
  requires com.github.luben.zstd_jni;
  // Logging API only; applications choose the binding.
  requires org.slf4j;
  // Only dev.stowage.micrometer touches Micrometer; applications that do not use it need no jar.
  requires static micrometer.core;

  exports dev.stowage;
  exports dev.stowage.capacity;
  exports dev.stowage.codec;
  exports dev.stowage.cost;
  exports dev.stowage.item;
  exports dev.stowage.memory;
  exports dev.stowage.micrometer;
  exports dev.stowage.overflow;
  exports dev.stowage.query;
  exports dev.stowage.spi;
  exports dev.stowage.typed;
  exports dev.stowage.usage;
}
