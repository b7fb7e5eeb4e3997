/**
 * The conformance kit: contract tests every Stowage driver passes, item generators and fault
 * injectors. Open, because JUnit and jqwik instantiate the kit's nested contract classes
 * reflectively.
 */
open module dev.stowage.testkit {
  requires transitive dev.stowage;
  requires transitive org.junit.jupiter.api;
  requires transitive net.jqwik.api;
  requires org.opentest4j;
  requires org.assertj.core;
  // WireFaults: a local HTTP proxy that answers with a backend's real error responses.
  requires jdk.httpserver;
  requires java.net.http;

  exports dev.stowage.testkit;
}
