package dev.stowage.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.overflow.BlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.query.ReadOptions;
import dev.stowage.test.Emulators;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Unconditional puts with a blob store configured: the driver replaces the version it last wrote
 * under that version's ETag, so a put of an item it remembers is one request with no read, and a
 * version another writer stored meanwhile is still found (the conditional write fails, the item is
 * read) and its blob released. Requests are counted on the wire.
 */
class OverwriteWithBlobStoreTest {
  static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
  static final AtomicInteger READS = new AtomicInteger();
  static final AtomicInteger WRITES = new AtomicInteger();
  static final TableSpec SPEC =
      TableSpec.builder("docs", KeySchema.of("id", AttributeType.STRING)).build();
  static final MemoryBlobStore BLOBS = new MemoryBlobStore();
  static String namespace;
  static Stowage counted;
  static Stowage other;
  static Table docs;
  static Table otherDocs;

  @BeforeAll
  static void start() {
    String conn = Emulators.shared().azurite().connectionString();
    HttpPipelinePolicy counter =
        new HttpPipelinePolicy() {
          @Override
          public Mono<HttpResponse> process(
              HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
            String path = context.getHttpRequest().getUrl().getPath();
            if (path.contains("RowKey=")) {
              HttpMethod m = context.getHttpRequest().getHttpMethod();
              (m == HttpMethod.GET ? READS : WRITES).incrementAndGet();
            }
            return next.process();
          }
        };
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(conn).addPolicy(counter).buildClient();
    namespace = Layouts.freshName("overwrite").replace("-", "");
    counted =
        Stowage.builder(AzureTablesDriver.of(service))
            .blobStore(BLOBS)
            .namespace(namespace)
            .build();
    other =
        Stowage.builder(AzureTablesDriver.fromConnectionString(conn))
            .blobStore(BLOBS)
            .namespace(namespace)
            .build();
    docs = counted.ensureTable(SPEC);
    otherDocs = other.ensureTable(SPEC);
  }

  @AfterAll
  static void stop() {
    counted.dropTable("docs");
    counted.close();
    other.close();
  }

  /** An item over Azure's 1 MiB entity limit (it overflows), or a small one. */
  static Item doc(String id, long version, boolean big) {
    byte[] body = new byte[big ? 1_200_000 : 100];
    new Random(version).nextBytes(body);
    return Item.builder().put("id", id).put("body", body).put("v", version).build();
  }

  @Test
  void aRememberedVersionIsReplacedWithoutAReadAndItsBlobReleased() {
    boolean[] sizes = {true, true, false, false, true, true, false};
    docs.put(doc("mine", 0, sizes[0]));
    for (int v = 1; v < sizes.length; v++) {
      READS.set(0);
      WRITES.set(0);
      docs.put(doc("mine", v, sizes[v]));
      assertThat(READS.get()).as("reads of put %d", v).isZero();
      assertThat(WRITES.get()).as("writes of put %d", v).isEqualTo(1);
      assertThat(docs.get(Key.of("mine"), ReadOptions.CONSISTENT))
          .contains(doc("mine", v, sizes[v]));
      assertThat(blobsOf("mine")).as("blobs after put %d", v).hasSize(sizes[v] ? 1 : 0);
    }
  }

  @Test
  void aVersionAnotherWriterStoredMeanwhileIsFoundAndItsBlobReleased() {
    docs.put(doc("shared", 1, true));
    otherDocs.put(doc("shared", 2, true));
    assertThat(blobsOf("shared")).hasSize(1);
    READS.set(0);
    docs.put(doc("shared", 3, true));
    assertThat(READS.get()).as("the stale version was noticed and the item read").isEqualTo(1);
    assertThat(blobsOf("shared")).as("version 2's blob released").hasSize(1);
    assertThat(otherDocs.get(Key.of("shared"), ReadOptions.CONSISTENT))
        .contains(doc("shared", 3, true));

    otherDocs.delete(Key.of("shared"));
    docs.put(doc("shared", 4, true));
    assertThat(blobsOf("shared")).hasSize(1);
    assertThat(docs.get(Key.of("shared"), ReadOptions.CONSISTENT)).contains(doc("shared", 4, true));
    docs.delete(Key.of("shared"));
    assertThat(blobsOf("shared")).isEmpty();
  }

  /** The overflow blobs stored now for the items of this test (keys name no item, so all). */
  private static Set<String> blobsOf(String id) {
    // Blob keys do not name the item; each test uses its own item, one at a time in this class.
    return BLOBS.list(namespace + "/").map(BlobStore.BlobInfo::key).collect(Collectors.toSet());
  }
}
