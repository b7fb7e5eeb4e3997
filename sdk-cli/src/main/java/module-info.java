/**
 * The {@code stowage} command line: commands over the library modules. It exports only its entry
 * point and reads no other module's {@code internal} package (the compiler enforces both).
 */
module dev.stowage.cli {
  requires dev.stowage;
  requires dev.stowage.migrate;
  requires dev.stowage.console;
  requires dev.stowage.dynamodb;
  requires dev.stowage.datastore;
  requires dev.stowage.azure;
  requires dev.stowage.s3;
  requires dev.stowage.gcs;
  requires dev.stowage.azure.blob;
  requires dev.stowage.local;
  requires info.picocli;
  requires com.fasterxml.jackson.core;
  requires org.slf4j;

  exports dev.stowage.cli;

  // picocli builds the commands and fills their options reflectively.
  opens dev.stowage.cli to
      info.picocli;
  opens dev.stowage.cli.internal.cmd to
      info.picocli;
}
