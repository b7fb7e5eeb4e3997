package dev.stowage.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.spi.StorageDriver;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;

/**
 * Where each driver says it points ({@link StorageDriver#location()}), computed without a request,
 * and what the migrator makes of it.
 */
class DriverLocationTest {
  private static final String AZURITE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static String azure(String account, String endpoint) {
    return "DefaultEndpointsProtocol=http;AccountName="
        + account
        + ";AccountKey="
        + AZURITE_KEY
        + ";TableEndpoint="
        + endpoint
        + ";";
  }

  @Test
  void dynamoDbIsItsEndpointAndRegion() {
    try (DynamoDbDriver local =
            DynamoDbDriver.builder()
                .region(Region.US_EAST_1)
                .endpoint(URI.create("http://localhost:8000"))
                .build();
        DynamoDbDriver aws = DynamoDbDriver.builder().region(Region.EU_WEST_1).build()) {
      assertThat(local.location()).isEqualTo("http://localhost:8000 region us-east-1");
      assertThat(aws.location()).isEqualTo("region eu-west-1");
    }
  }

  @Test
  void datastoreIsItsHostProjectAndDatabase() {
    try (DatastoreDriver emulator =
            DatastoreDriver.builder().projectId("test").emulatorHost("localhost:8081").build();
        DatastoreDriver db =
            DatastoreDriver.builder()
                .projectId("test")
                .emulatorHost("localhost:8081")
                .databaseId("orders")
                .build()) {
      assertThat(emulator.location()).isEqualTo("localhost:8081 project test");
      assertThat(db.location()).isEqualTo("localhost:8081 project test database orders");
    }
  }

  @Test
  void azureIsItsServiceEndpoint() {
    try (AzureTablesDriver a =
            AzureTablesDriver.fromConnectionString(
                azure("devstoreaccount1", "http://127.0.0.1:10002/devstoreaccount1"));
        AzureTablesDriver b =
            AzureTablesDriver.fromConnectionString(
                azure("devstoreaccount1", "http://127.0.0.1:10012/devstoreaccount1"))) {
      assertThat(a.location()).isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
      assertThat(b.location()).isNotEqualTo(a.location());
    }
  }

  @Test
  void twoDriversOnOneDynamoDbTableAreOneStore() {
    try (DynamoDbDriver one =
            DynamoDbDriver.builder()
                .region(Region.US_EAST_1)
                .endpoint(URI.create("http://localhost:8000"))
                .build();
        DynamoDbDriver two =
            DynamoDbDriver.builder()
                .region(Region.US_EAST_1)
                .endpoint(URI.create("http://localhost:8000"))
                .build();
        DynamoDbDriver otherRegion =
            DynamoDbDriver.builder()
                .region(Region.EU_WEST_1)
                .endpoint(URI.create("http://localhost:8000"))
                .build()) {
      assertThatThrownBy(
              () ->
                  Migrator.builder(MigratorTest.SPEC)
                      .source(one, null, "prod")
                      .target(two, null, "prod")
                      .build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "the source and the target are the same table (dynamodb http://localhost:8000"
                  + " region us-east-1 namespace 'prod' table events): a table cannot be migrated"
                  + " onto itself; name another store, namespace or table as the target");
      Migrator.builder(MigratorTest.SPEC)
          .source(one, null, "prod")
          .target(otherRegion, null, "prod")
          .build();
      // two accounts in one region look alike to the driver: the caller names them
      Migrator.builder(MigratorTest.SPEC)
          .source(one, null, "prod")
          .sourceLocation("account 111")
          .target(two, null, "prod")
          .targetLocation("account 222")
          .build();
    }
  }
}
