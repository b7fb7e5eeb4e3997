/**
 * Stowage's local web console: browse, decode, edit and delete the items of Stowage tables from a
 * browser, on 127.0.0.1 only. Exports only {@code dev.stowage.console}; the server, its JSON API
 * and the web page are internal.
 */
module dev.stowage.console {
  requires dev.stowage;
  // Migration jobs: the console runs the library's migrator (itself over sdk-api only).
  requires dev.stowage.migrate;
  requires io.javalin;
  requires org.eclipse.jetty.server;
  requires com.fasterxml.jackson.core;
  requires org.slf4j;

  exports dev.stowage.console;
  // The command line writes and reads items as the console does: one JSON form for both.
  exports dev.stowage.console.internal.json to
      dev.stowage.cli;
}
