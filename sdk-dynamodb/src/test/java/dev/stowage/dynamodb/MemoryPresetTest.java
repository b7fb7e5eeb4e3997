package dev.stowage.dynamodb;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.testkit.LimitPresets;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The in-memory DynamoDB preset refuses exactly what the driver refuses. */
class MemoryPresetTest {
  @Test
  void thePresetHasTheDriversLimitsAndCapabilities() {
    try (DynamoDbDriver driver =
        DynamoDbDriver.builder()
            .region(Region.US_EAST_1)
            .endpoint(URI.create("http://127.0.0.1:9"))
            .credentials(
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
            .build()) {
      LimitPresets.assertMatches(
          MemoryLimits.dynamoDb(), MemoryLimits.dynamoDbCapabilities(), driver);
    }
  }
}
