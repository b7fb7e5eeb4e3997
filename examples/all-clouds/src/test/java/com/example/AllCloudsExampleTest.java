package com.example;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Query;
import dev.stowage.test.Backend;
import dev.stowage.test.On;
import dev.stowage.test.WithEmulators;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The same code on all three clouds, in one test JVM: what is written on one reads back on all. */
@WithEmulators({Backend.DYNAMODB, Backend.DATASTORE, Backend.AZURE})
class AllCloudsExampleTest {
  static final TableSpec NOTES =
      TableSpec.builder(
              "notes", KeySchema.of("author", AttributeType.STRING, "at", AttributeType.NUMBER))
          .build();

  @Test
  void sameItemsOnEveryCloud(
      @On(Backend.DYNAMODB) Stowage aws,
      @On(Backend.DATASTORE) Stowage gcp,
      @On(Backend.AZURE) Stowage azure) {
    byte[] scan = new byte[2 * 1024 * 1024]; // overflows on every backend
    new Random(7).nextBytes(scan);
    List<Item> written =
        List.of(
            Item.builder().put("author", "ada").put("at", 1).put("text", "first").build(),
            Item.builder().put("author", "ada").put("at", 2).put("scan", scan).build());
    for (Stowage store : List.of(aws, gcp, azure)) {
      Table notes = store.ensureTable(NOTES);
      written.forEach(notes::put);
      assertEquals("first", notes.get(Key.of("ada", 1)).orElseThrow().getString("text"));
      assertArrayEquals(
          scan, notes.get(Key.of("ada", 2)).orElseThrow().getBinary("scan").toByteArray());
      assertEquals(2, notes.query(Query.partition("ada").build()).items().size(), store.backend());
    }
  }
}
