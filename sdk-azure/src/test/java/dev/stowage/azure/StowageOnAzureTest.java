package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.blob.AzureBlobStore;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.test.Emulators;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Items beyond Azure's entity limits go through Stowage's core, which overflows them to the Azure
 * Blob store: a 300-attribute item (Azure allows 255 properties) and a 3 MiB item (Azure allows 1
 * MiB).
 */
class StowageOnAzureTest {
  static Stowage stowage;
  static Table table;

  @BeforeAll
  static void start() {
    String conn = Emulators.shared().azurite().connectionString();
    stowage =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn))
            .blobStore(AzureBlobStore.fromConnectionString(conn, "overflow", "e2e/"))
            .namespace("e2e" + Long.toString(System.nanoTime() % 100_000, 36))
            .build();
    table =
        stowage.ensureTable(
            TableSpec.builder(
                    "docs", KeySchema.of("id", AttributeType.STRING, "v", AttributeType.NUMBER))
                .build());
  }

  @AfterAll
  static void stop() {
    stowage.dropTable("docs");
    stowage.close();
  }

  @Test
  void wideItemsRoundTrip() {
    Item.Builder b = Item.builder().put("id", "wide").put("v", 1);
    for (int i = 0; i < 300; i++) {
      b.put("attribute_" + i, "value " + i);
    }
    Item item = b.build();
    table.put(item);
    assertThat(table.get(Key.of("wide", 1))).contains(item);
  }

  @Test
  void largeItemsRoundTrip() {
    byte[] blob = new byte[3 * 1024 * 1024];
    new Random(1).nextBytes(blob);
    Item item =
        Item.builder()
            .put("id", "large")
            .put("v", 2)
            .put("payload", blob)
            .put("text", "é".repeat(100_000))
            .put("small", "stays inline")
            .build();
    table.put(item);
    assertThat(table.get(Key.of("large", 2))).contains(item);
  }
}
