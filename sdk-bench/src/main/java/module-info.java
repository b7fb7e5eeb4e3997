/**
 * JMH benchmarks, each side by side with its anchor. Open: JMH and the Enhanced Client reach the
 * benchmark states and beans reflectively. Reads the DynamoDB driver's internal item mapper through
 * a qualified export, to compare it with the Enhanced Client's.
 */
open module dev.stowage.bench {
  requires dev.stowage;
  requires dev.stowage.dynamodb;
  requires dev.stowage.azure;
  requires dev.stowage.datastore;
  requires dev.stowage.local;
  // The local store's anchor: SQLite through JDBC, as an application uses it by hand.
  requires java.sql;
  requires org.xerial.sqlitejdbc;
  // The emulators (Azurite, the Firestore emulator) for the Azure and Datastore benchmarks.
  requires dev.stowage.test;
  requires dev.stowage.migrate;
  requires jmh.core;
  requires java.management;
  requires jdk.management;
  requires com.github.luben.zstd_jni;
  requires com.google.crypto.tink;
  requires software.amazon.awssdk.services.dynamodb;
  requires software.amazon.awssdk.enhanced.dynamodb;
  requires software.amazon.awssdk.http.apache5;
  requires software.amazon.awssdk.http;
  requires software.amazon.awssdk.regions;
  requires software.amazon.awssdk.auth;
  requires software.amazon.awssdk.core;
  requires aws.database.encryption.sdk.dynamodb;
  requires aws.cryptographic.material.providers;
  requires DynamoDBLocal;
  // DynamoDB Local's own API throws the v1 SDK's exceptions.
  requires aws.java.sdk.core;
}
