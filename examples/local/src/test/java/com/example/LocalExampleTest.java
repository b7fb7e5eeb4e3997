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
import dev.stowage.local.LocalDriver;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An application keeping its data in one file: nothing to start, and it is there next time. */
class LocalExampleTest {
  static final TableSpec NOTES =
      TableSpec.builder("notes", KeySchema.of("author", AttributeType.STRING, "at", AttributeType.NUMBER))
          .build();

  @TempDir Path dir;

  static Stowage open(Path file) {
    return Stowage.builder(LocalDriver.open(file))
        .blobStore(new FileBlobStore(LocalDriver.blobDirectory(file)))
        .build();
  }

  @Test
  void putQueryAndReadAgainAfterARestart() {
    Path file = dir.resolve("notes.db");
    byte[] scan = new byte[2 * 1024 * 1024]; // over the default (DynamoDB-like) item limit
    new Random(7).nextBytes(scan);
    try (Stowage store = open(file)) {
      Table notes = store.ensureTable(NOTES);
      for (int i = 1; i <= 3; i++) {
        notes.put(Item.builder().put("author", "ada").put("at", i).put("text", "note " + i).build());
      }
      notes.put(Item.builder().put("author", "ada").put("at", 9).put("scan", scan).build());
    }
    try (Stowage store = open(file)) { // a restart: the data is in the file
      Table notes = store.table(NOTES);
      Page newest = notes.query(Query.partition("ada").descending().limit(2).build());
      assertEquals(List.of(9L, 3L), newest.items().stream().map(n -> n.getLong("at")).toList());
      Page older = notes.page(newest.before().orElseThrow());
      assertEquals("note 2", older.items().get(0).getString("text"));
      assertArrayEquals(scan, notes.get(Key.of("ada", 9)).orElseThrow().getBinary("scan").toByteArray());
    }
  }
}
