package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import dev.stowage.IndexSpec;
import dev.stowage.ItemTooLargeException;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.gcs.GcsBlobStore;
import dev.stowage.item.AttributeType;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Items beyond Datastore's limits through Stowage with the GCS blob store: an item over 1 MiB
 * overflows to GCS and reads back whole (also from an index query), and a 2 KB string, which
 * Datastore could not index, is stored because the driver indexes only the synthesized index
 * attributes.
 */
class OverflowEndToEndTest {
  static Stowage stowage;
  static Table docs;
  static GcsBlobStore blobs;

  @BeforeAll
  static void setUp() {
    blobs = GcsBlobStore.of(LocalStorageHelper.getOptions().getService(), "blobs", "ovf");
    stowage =
        Stowage.builder(DatastoreDriver.of(Emulators.shared().datastore().client()))
            .blobStore(blobs)
            .namespace("ovf" + Long.toString(System.nanoTime() % 1_000_000, 36))
            .build();
    docs =
        stowage.ensureTable(
            TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING))
                .index(IndexSpec.of("byOwner", List.of("owner"), List.of("title")))
                .build());
  }

  @AfterAll
  static void tearDown() {
    stowage.dropTable("docs");
    stowage.close();
  }

  @Test
  void anItemOverOneMebibyteRoundTripsThroughTheBlobStore() {
    byte[] body = new byte[1_300_000];
    new Random(7).nextBytes(body); // incompressible, so it really is over the limit
    Item big =
        Item.builder()
            .put("id", "big")
            .put("owner", "ann")
            .put("title", "report")
            .put("body", body)
            .put("notes", "n".repeat(300_000))
            .build();
    docs.put(big);
    assertThat(docs.get(Key.of("big"))).contains(big);
    try (Stream<BlobStore.BlobInfo> listed = blobs.list("")) {
      assertThat(listed.toList()).isNotEmpty();
    }
    Query byOwner = Query.index("byOwner").partition(AttributeValue.of("ann")).limit(10).build();
    assertThat(docs.queryAll(byOwner)).contains(big);
  }

  @Test
  void aTwoKilobyteStringRoundTripsBecauseOnlyIndexAttributesAreIndexed() {
    Item item =
        Item.builder()
            .put("id", "long-string")
            .put("owner", "bob")
            .put("title", "t")
            .put("summary", "s".repeat(2048)) // Datastore indexes strings only up to 1500 bytes
            .build();
    docs.put(item);
    assertThat(docs.get(Key.of("long-string"))).contains(item);
    Query byOwner = Query.index("byOwner").partition(AttributeValue.of("bob")).limit(10).build();
    assertThat(docs.queryAll(byOwner)).containsExactly(item);
  }

  @Test
  void aTwoKilobyteStringInsideAStowageIndexIsStoredInItsLongFormAndOneByteMoreIsRefused() {
    // Index values are indexed properties of at most 1500 bytes: a longer one is stored in its
    // long form (docs/FORMAT.md), and indexed attributes cannot overflow.
    Item item =
        Item.builder()
            .put("id", "long-owner")
            .put("owner", "c".repeat(2048))
            .put("title", "t")
            .build();
    docs.put(item);
    Query byOwner =
        Query.index("byOwner").partition(AttributeValue.of("c".repeat(2048))).limit(10).build();
    assertThat(docs.queryAll(byOwner)).containsExactly(item);
    Item over = item.toBuilder().put("id", "too-long").put("owner", "c".repeat(2049)).build();
    assertThatThrownBy(() -> docs.put(over)).isInstanceOf(ItemTooLargeException.class);
  }
}
