package dev.stowage.bench;

import com.azure.data.tables.TableServiceClient;
import com.google.cloud.datastore.Datastore;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.item.Item;
import dev.stowage.spi.StorageDriver;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The sources {@link CrossBackendCeilings} seeds once, before its rounds: what the migrator reads
 * (through Stowage) and what the raw copy reads (through the raw client), with the time each took.
 */
final class SourceSeeds {
  private SourceSeeds() {}

  /**
   * Seeds the migrator's first source (DynamoDB Local, namespace {@code prod}) and, for a hop run
   * alone ({@code only} of 1 or 2), that hop's source (namespace {@code seed}), through Stowage.
   */
  static void throughStowage(
      List<Item> items,
      int only,
      StorageDriver ddbDriver,
      StorageDriver dsDriver,
      StorageDriver azDriver) {
    int n = items.size();
    Table source =
        Stowage.builder(ddbDriver).namespace("prod").build().ensureTable(CrossBackendCeilings.SPEC);
    long t = System.nanoTime();
    source.batchPut(items);
    System.out.printf(
        Locale.ROOT, "seeded DynamoDB Local with %,d items in %,d ms%n", n, TimedTasks.ms(t));
    if (only > 0) {
      // The hop's source as the hop before it would leave it: seeded once, read every round.
      StorageDriver seedDriver = only == 1 ? dsDriver : azDriver;
      t = System.nanoTime();
      Stowage.builder(seedDriver)
          .namespace("seed")
          .build()
          .ensureTable(CrossBackendCeilings.SPEC)
          .batchPut(items);
      System.out.printf(
          Locale.ROOT,
          "seeded %s with %,d items in %,d ms%n",
          CrossBackendCeilings.HOPS[only],
          n,
          TimedTasks.ms(t));
    }
  }

  /** Seeds the first raw copy's source (of the hop run alone, if any) with the raw client. */
  static void byRawClient(
      List<Item> items,
      int only,
      DynamoDbClient ddb,
      Datastore datastore,
      TableServiceClient azureTables,
      ExecutorService pool)
      throws Exception {
    int n = items.size();
    // The raw copies' first source, written by the raw client once, read every round, as the
    // migrator's first source is by Stowage.
    long t = System.nanoTime();
    switch (only) {
      case -1, 0 -> RawDynamoDb.write(ddb, pool, CrossBackendCeilings.RAW_SOURCE, items);
      case 1 -> RawDatastore.write(datastore, pool, "seed", items);
      default -> RawAzure.writeWithIndexRows(azureTables, pool, "rawseed", items);
    }
    System.out.printf(
        Locale.ROOT,
        "seeded %s with %,d items by the raw client (the raw copy's source) in %,d ms%n",
        CrossBackendCeilings.STORES[Math.max(only, 0)],
        n,
        TimedTasks.ms(t));
  }
}
