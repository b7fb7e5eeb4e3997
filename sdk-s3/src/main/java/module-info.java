/** The Amazon S3 blob store for overflow. */
module dev.stowage.s3 {
  requires transitive dev.stowage;
  // The blob store takes the application's own client.
  requires transitive software.amazon.awssdk.services.s3;
  requires transitive software.amazon.awssdk.core;
  requires transitive software.amazon.awssdk.regions;
  requires transitive software.amazon.awssdk.auth;
  requires software.amazon.awssdk.awscore;

  exports dev.stowage.s3;
}
