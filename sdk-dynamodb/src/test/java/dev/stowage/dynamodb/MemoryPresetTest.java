package dev.stowage.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.memory.MemoryLimits;
import dev.stowage.spi.DriverLimits;
import java.net.URI;
import java.util.List;
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
      assertThat(numbers(MemoryLimits.dynamoDb())).isEqualTo(numbers(driver.limits()));
      assertThat(MemoryLimits.dynamoDbCapabilities()).isEqualTo(driver.capabilities());
    }
  }

  /** Every limit but the size model, which the memory driver approximates. */
  static List<Long> numbers(DriverLimits l) {
    return List.of(
        l.maxItemBytes(),
        l.maxAttributeBytes(),
        (long) l.maxAttributes(),
        (long) l.maxIndexedValueBytes(),
        (long) l.maxPartitionKeyBytes(),
        (long) l.maxSortKeyBytes(),
        (long) l.maxBatchGet(),
        (long) l.maxBatchWrite(),
        (long) l.maxTransactionItems());
  }
}
