package dev.stowage.test;

import dev.stowage.test.internal.Reflect;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * An S3-compatible server (S3Proxy over an in-memory store) inside the test JVM, on a free port.
 * Obtained from {@link Emulators#s3()}; shared by the test run and stopped at its end. Thread-safe.
 *
 * <p>Needs {@code org.gaul:s3proxy} and {@code software.amazon.awssdk:s3} on the test class path.
 * Clients must use path-style addressing, as {@link #newClient()} does.
 */
public final class S3Emulator {
  static final String INSTALL =
      "Add org.gaul:s3proxy (version and exclusions from dev.stowage:stowage-bom) with test scope.";

  /** The access key the server accepts. */
  public static final String ACCESS_KEY = "access";

  /** The secret key the server accepts. */
  public static final String SECRET_KEY = "secret";

  // S3Proxy is reached by name: its jar declares service providers of classes it does not hold,
  // so it cannot be required as a module; it is always on the test class path.
  static final String S3_PROXY = "org.gaul.s3proxy.S3Proxy";
  private static final String BLOB_STORE = "org.gaul.s3proxy.blobstore.BlobStore";
  private static final String TRANSIENT_STORE = "org.gaul.s3proxy.nio2blob.TransientNio2BlobStore";
  private static final String AUTHENTICATION = "org.gaul.s3proxy.auth.AuthenticationType";

  /** The running {@code S3Proxy}. */
  private final Object proxy;

  private final URI endpoint;
  private final S3Client client;

  private S3Emulator(Object proxy) {
    this.proxy = proxy;
    int port = (Integer) Reflect.call(proxy, "getPort", new Class<?>[0]);
    this.endpoint = URI.create("http://127.0.0.1:" + port);
    this.client = newClient();
  }

  static S3Emulator start() {
    Object proxy = null;
    try {
      proxy = newProxy();
      Reflect.call(proxy, "start", new Class<?>[0]);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!"STARTED".equals(state(proxy))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("S3Proxy is still " + state(proxy) + " after 30 s");
        }
        Thread.sleep(20);
      }
      return new S3Emulator(proxy);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      stopQuietly(proxy);
      throw new EmulatorStartException("S3Proxy failed to start (" + e + "). " + INSTALL, e);
    }
  }

  /**
   * The endpoint, {@code http://127.0.0.1:port}.
   *
   * @return the endpoint to give an S3 client
   */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * A client on this server shared by the test run; do not close it.
   *
   * @return the shared client
   */
  public S3Client client() {
    return client;
  }

  /**
   * A new path-style client on this server; the caller closes it.
   *
   * @return a new client
   */
  public S3Client newClient() {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  /**
   * Creates a bucket with a unique name.
   *
   * @return the bucket's name
   */
  public String newBucket() {
    String name = "b-" + UUID.randomUUID().toString().substring(0, 12);
    client.createBucket(b -> b.bucket(name));
    return name;
  }

  void stop() {
    client.close();
    stopQuietly(proxy);
  }

  /**
   * {@code S3Proxy.builder().blobStore(new TransientNio2BlobStore()).endpoint(...)
   * .awsAuthentication(AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build()}: an in-memory store behind
   * AWS signature checks, on a port the system picks.
   */
  private static Object newProxy() throws ReflectiveOperationException {
    Class<?> authType = Reflect.type(AUTHENTICATION);
    Object awsV2OrV4 = authType.getField("AWS_V2_OR_V4").get(null);
    Object store = Reflect.type(TRANSIENT_STORE).getConstructor().newInstance();
    Object b = Reflect.callStatic(S3_PROXY, "builder", new Class<?>[0]);
    b = Reflect.call(b, "blobStore", new Class<?>[] {Reflect.type(BLOB_STORE)}, store);
    b = Reflect.call(b, "endpoint", new Class<?>[] {URI.class}, URI.create("http://127.0.0.1:0"));
    b =
        Reflect.call(
            b,
            "awsAuthentication",
            new Class<?>[] {authType, String.class, String.class},
            awsV2OrV4,
            ACCESS_KEY,
            SECRET_KEY);
    return Reflect.call(b, "build", new Class<?>[0]);
  }

  private static String state(Object proxy) {
    return (String) Reflect.call(proxy, "getState", new Class<?>[0]);
  }

  private static void stopQuietly(Object proxy) {
    if (proxy != null) {
      try {
        Reflect.call(proxy, "stop", new Class<?>[0]);
      } catch (Exception e) {
        System.err.println("[stowage-test] stopping S3Proxy failed: " + e);
      }
    }
  }
}
