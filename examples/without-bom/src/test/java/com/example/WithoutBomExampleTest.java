package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.memory.MemoryDriver;
import org.junit.jupiter.api.Test;

/**
 * The README's first snippet with sdk-datastore on the class path and no BOM. Building a store
 * loads Tink's protobuf classes: with Google's older protobuf runtime this fails with
 * ProtobufRuntimeVersionException ("gencode 4.33.6, runtime 4.33.2").
 */
class WithoutBomExampleTest {
  @Test
  void theReadmeSnippetRuns() {
    try (Stowage store = Stowage.builder(MemoryDriver.create()).build()) {
      Table users = store.ensureTable(TableSpec.builder("users", KeySchema.of("id", AttributeType.STRING)).build());
      users.put(Item.builder().put("id", "u1").put("name", "Ada").build());
      assertEquals("Ada", users.get(Key.of("u1")).orElseThrow().getString("name"));
    }
  }
}
