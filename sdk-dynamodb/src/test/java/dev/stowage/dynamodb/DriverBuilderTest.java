package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.UnavailableException;
import dev.stowage.item.Key;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.TableLayout;
import dev.stowage.test.Emulators;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

class DriverBuilderTest {
  private static final StaticCredentialsProvider CREDS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));

  @Test
  void buildsItsOwnClientFromRegionAndEndpoint() {
    try (DynamoDbDriver own =
        DynamoDbDriver.builder()
            .region(Region.US_EAST_1)
            .endpoint(Emulators.shared().dynamoDb().endpoint())
            .credentials(CREDS)
            .build()) {
      TableLayout t = Fixtures.layout("ns1", Fixtures.uniqueName("own"), null);
      own.ensureTable(t);
      own.put(t, Fixtures.item("k", Map.of()), Expectation.ANY, false);
      assertThat(own.get(t, Key.of("k"), true)).isPresent();
      assertThat(own.name()).isEqualTo("dynamodb");
    }
  }

  @Test
  void needsAClientOrARegion() {
    assertThatThrownBy(() -> DynamoDbDriver.builder().build())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> DynamoDbDriver.builder().provisionedThroughput(0, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anUnreachableEndpointIsUnavailable() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (DynamoDbDriver nowhere =
        DynamoDbDriver.builder()
            .region(Region.US_EAST_1)
            .endpoint(URI.create("http://127.0.0.1:" + port))
            .credentials(CREDS)
            .build()) {
      TableLayout t = Fixtures.layout("", "nowhere", null);
      assertThatThrownBy(() -> nowhere.get(t, Key.of("k"), false))
          .isInstanceOf(UnavailableException.class)
          .hasMessageContaining("GetItem nowhere");
    }
  }
}
