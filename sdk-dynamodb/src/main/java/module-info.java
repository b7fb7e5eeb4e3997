/** The Amazon DynamoDB driver and the S3 blob store for overflow. */
module dev.stowage.dynamodb {
  requires transitive dev.stowage;
  requires org.slf4j;
  // The drivers take the application's own SDK clients.
  requires transitive software.amazon.awssdk.services.dynamodb;
  requires transitive software.amazon.awssdk.core;
  requires transitive software.amazon.awssdk.regions;
  requires software.amazon.awssdk.awscore;
  requires transitive software.amazon.awssdk.auth;

  exports dev.stowage.dynamodb;
  // The item translation benchmark compares the driver's mapper with the Enhanced Client's.
  exports dev.stowage.dynamodb.internal to
      dev.stowage.bench;
}
