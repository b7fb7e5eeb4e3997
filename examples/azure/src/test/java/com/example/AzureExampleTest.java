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
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.test.Backend;
import dev.stowage.test.WithEmulators;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A user's integration test: the emulator in one line, a ready store per test. */
@WithEmulators(Backend.AZURE)
class AzureExampleTest {
  static final TableSpec NOTES =
      TableSpec.builder("notes", KeySchema.of("author", AttributeType.STRING, "at", AttributeType.NUMBER))
          .build();

  @Test
  void putGetAndQuery(Stowage store) {
    Table notes = store.ensureTable(NOTES);
    for (int i = 1; i <= 3; i++) {
      notes.put(Item.builder().put("author", "ada").put("at", i).put("text", "note " + i).build());
    }
    assertEquals("note 2", notes.get(Key.of("ada", 2)).orElseThrow().getString("text"));

    Page newest = notes.query(Query.partition("ada").descending().limit(2).build());
    assertEquals(List.of("note 3", "note 2"), newest.items().stream().map(n -> n.getString("text")).toList());
    Page older = notes.page(newest.before().orElseThrow()); // the cursor is all a client sends back
    assertEquals("note 1", older.items().get(0).getString("text"));
  }

  @Test
  void aLargeItemOverflowsToTheBlobStore(Stowage store) {
    Table notes = store.ensureTable(NOTES);
    byte[] scan = new byte[2 * 1024 * 1024]; // over every backend's item limit
    new Random(7).nextBytes(scan);
    notes.put(Item.builder().put("author", "ada").put("at", 9).put("scan", scan).build());
    assertArrayEquals(scan, notes.get(Key.of("ada", 9)).orElseThrow().getBinary("scan").toByteArray());
  }
}
