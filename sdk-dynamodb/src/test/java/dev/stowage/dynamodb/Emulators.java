package dev.stowage.dynamodb;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * DynamoDB Local and S3Proxy, started once per test JVM on free ports and stopped by a shutdown
 * hook. A failure to start fails the tests with a message saying what is missing.
 */
public final class Emulators {
  private static Emulators instance;

  private final DynamoDBProxyServer dynamo;
  private final S3Proxy s3proxy;
  private final URI dynamoEndpoint;
  private final URI s3Endpoint;
  private final DynamoDbClient dynamoClient;
  private final S3Client s3Client;

  /** The running emulators, starting them on first use. */
  public static synchronized Emulators get() {
    if (instance == null) {
      instance = new Emulators();
      Runtime.getRuntime().addShutdownHook(new Thread(instance::stop, "stop-emulators"));
    }
    return instance;
  }

  private Emulators() {
    int port = freePort();
    try {
      dynamo =
          ServerRunner.createServerFromCommandLineArgs(
              new String[] {"-inMemory", "-port", Integer.toString(port), "-disableTelemetry"});
      dynamo.start();
    } catch (Exception e) {
      throw new IllegalStateException(
          "DynamoDB Local (com.amazonaws:DynamoDBLocal:2.6.1, test scope) failed to start on port "
              + port
              + "; it needs its sqlite4java native library from Maven Central",
          e);
    }
    dynamoEndpoint = URI.create("http://127.0.0.1:" + port);
    try {
      s3proxy =
          S3Proxy.builder()
              .blobStore(new TransientNio2BlobStore())
              .endpoint(URI.create("http://127.0.0.1:0"))
              .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "access", "secret")
              .build();
      s3proxy.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!"STARTED".equals(s3proxy.getState())) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("S3Proxy state " + s3proxy.getState());
        }
        Thread.sleep(20);
      }
    } catch (Exception e) {
      stopDynamo();
      throw new IllegalStateException(
          "S3Proxy (org.gaul:s3proxy:4.1.0, test scope) failed to start", e);
    }
    s3Endpoint = URI.create("http://127.0.0.1:" + s3proxy.getPort());
    dynamoClient = newDynamoClient();
    s3Client = newS3Client();
  }

  /** A shared DynamoDB client on DynamoDB Local. */
  public DynamoDbClient dynamo() {
    return dynamoClient;
  }

  /** A shared S3 client on S3Proxy (path-style). */
  public S3Client s3() {
    return s3Client;
  }

  /** DynamoDB Local's endpoint. */
  public URI dynamoEndpoint() {
    return dynamoEndpoint;
  }

  /** S3Proxy's endpoint. */
  public URI s3Endpoint() {
    return s3Endpoint;
  }

  /** A fresh client on DynamoDB Local; the caller closes it. */
  public DynamoDbClient newDynamoClient() {
    return DynamoDbClient.builder()
        .endpointOverride(dynamoEndpoint)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
        .build();
  }

  /** A fresh client on S3Proxy; the caller closes it. */
  public S3Client newS3Client() {
    return S3Client.builder()
        .endpointOverride(s3Endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("access", "secret")))
        .build();
  }

  /** Creates a bucket with a unique name and returns the name. */
  public String newBucket() {
    String name = "b-" + UUID.randomUUID().toString().substring(0, 12);
    s3Client.createBucket(b -> b.bucket(name));
    return name;
  }

  /** Stops the emulators if they were started; idempotent. */
  public static synchronized void stopIfStarted() {
    if (instance != null) {
      instance.stop();
    }
  }

  private boolean stopped;

  private synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    dynamoClient.close();
    s3Client.close();
    try {
      s3proxy.stop();
    } catch (Exception e) {
      System.err.println("stopping S3Proxy failed: " + e);
    }
    stopDynamo();
  }

  private void stopDynamo() {
    try {
      dynamo.stop();
    } catch (Exception e) {
      System.err.println("stopping DynamoDB Local failed: " + e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }
}
