package dev.stowage.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import dev.stowage.KeySchema;
import dev.stowage.RetryPolicy;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.ReadOptions;
import dev.stowage.test.Emulators;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Unconditional puts with a blob store configured take the entity the driver last wrote as the
 * version they replace (Datastore has no conditional write outside a transaction, so no read is
 * spent on it): the blobs of versions this driver wrote are released at once, and a version another
 * driver wrote meanwhile is replaced unseen, its blob left to the sweeper, with nothing lost
 * (docs/FORMAT.md, "Write order and garbage").
 */
class OverwriteWithBlobStoreTest {
  static final TableSpec SPEC =
      TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();

  MemoryBlobStore blobs;
  String namespace;
  Stowage mine;
  Stowage other;
  Table docs;
  Table otherDocs;

  @BeforeEach
  void setUp() {
    blobs = new MemoryBlobStore();
    namespace = "ow" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    mine = store(Clock.systemUTC());
    other = store(Clock.systemUTC());
    docs = mine.ensureTable(SPEC);
    otherDocs = other.ensureTable(SPEC);
  }

  private Stowage store(Clock clock) {
    return Stowage.builder(DatastoreDriver.of(Emulators.shared().datastore().client()))
        .blobStore(blobs)
        .clock(clock)
        .namespace(namespace)
        .build();
  }

  @AfterEach
  void tearDown() {
    mine.dropTable("docs");
    mine.close();
    other.close();
  }

  /** An item over Datastore's 1 MiB entity limit (it overflows), or a small one. */
  static Item doc(long version, boolean big) {
    byte[] body = new byte[big ? 1_300_000 : 100];
    new Random(version).nextBytes(body);
    return Item.builder().put("id", "doc").put("body", body).put("v", version).build();
  }

  @Test
  void theBlobsOfVersionsThisDriverWroteAreReleasedAtOnce() {
    boolean[] sizes = {true, true, false, false, true, true, false, true};
    for (int v = 0; v < sizes.length; v++) {
      docs.put(doc(v, sizes[v]));
      assertThat(docs.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(v, sizes[v]));
      assertThat(blobKeys()).as("blobs after put %d", v).hasSize(sizes[v] ? 1 : 0);
    }
    docs.delete(Key.of("doc"));
    assertThat(blobKeys()).isEmpty();
  }

  @Test
  void aVersionAnotherDriverWroteMeanwhileLosesNothingAndItsBlobIsSwept() {
    docs.put(doc(1, true));
    otherDocs.put(doc(2, true));
    assertThat(blobKeys()).as("the other driver read version 1 and released its blob").hasSize(1);
    docs.put(doc(3, true));
    assertThat(otherDocs.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(3, true));
    assertThat(docs.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(3, true));
    // Version 2 was replaced unseen: its blob is unreferenced, and only the sweeper takes it.
    assertThat(blobKeys()).hasSize(2);
    Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);
    try (Stowage sweeping = store(later)) {
      var report = sweeping.ensureTable(SPEC).sweepOverflow(Duration.ofHours(1), false);
      assertThat(report.deleted()).isEqualTo(1);
    }
    assertThat(blobKeys()).hasSize(1);
    assertThat(docs.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(3, true));
    docs.delete(Key.of("doc"));
    assertThat(blobKeys()).isEmpty();
  }

  @Test
  void aPutWhoseResponseIsLostLosesNothingAndLeavesOneBlobToTheSweeper() {
    AtomicBoolean loseNextPut = new AtomicBoolean();
    Datastore client = Emulators.shared().datastore().client();
    // The put reaches the emulator and lands; only its response is lost.
    Datastore flaky =
        (Datastore)
            Proxy.newProxyInstance(
                Datastore.class.getClassLoader(),
                new Class<?>[] {Datastore.class},
                (proxy, method, args) -> {
                  Object result;
                  try {
                    result = method.invoke(client, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                  if (method.getName().equals("put") && loseNextPut.getAndSet(false)) {
                    throw new DatastoreException(503, "response lost", "UNAVAILABLE");
                  }
                  return result;
                });
    try (Stowage lossy =
        Stowage.builder(DatastoreDriver.of(flaky))
            .blobStore(blobs)
            .namespace(namespace)
            .retryPolicy(RetryPolicy.NONE)
            .build()) {
      Table t = lossy.ensureTable(SPEC);
      t.put(doc(1, true));
      loseNextPut.set(true);
      assertThatThrownBy(() -> t.put(doc(2, true))).isInstanceOf(UnavailableException.class);
      assertThat(t.get(Key.of("doc"), ReadOptions.CONSISTENT))
          .as("the write whose response was lost landed")
          .contains(doc(2, true));
      t.put(doc(3, false));
      assertThat(t.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(3, false));
      // The put of version 2 replaced version 1, but its response (which named version 1 as the
      // one replaced) was lost: one blob is unreferenced now, and the sweeper takes it.
      assertThat(blobKeys()).hasSize(1);
    }
    Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);
    try (Stowage sweeping = store(later)) {
      var report = sweeping.ensureTable(SPEC).sweepOverflow(Duration.ofHours(1), false);
      assertThat(report.deleted()).isEqualTo(1);
    }
    assertThat(blobKeys()).isEmpty();
    assertThat(docs.get(Key.of("doc"), ReadOptions.CONSISTENT)).contains(doc(3, false));
  }

  private Set<String> blobKeys() {
    return blobs.list(namespace + "/").map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
  }
}
