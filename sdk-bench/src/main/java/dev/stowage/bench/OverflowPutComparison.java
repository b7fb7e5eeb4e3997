package dev.stowage.bench;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.KeyFactory;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.azure.AzureTablesDriver;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.overflow.FileBlobStore;
import dev.stowage.overflow.MemoryBlobStore;
import dev.stowage.spi.StorageDriver;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Issue 17, overflow on the write path, measured in alternating blocks in one JVM ({@link
 * Alternating}) because emulators and a shared machine make separate runs incomparable:
 *
 * <ul>
 *   <li>{@code datastore}, {@code azure}: a put of a small item (six attributes, never overflows)
 *       through Stowage with a blob store configured, through Stowage without one, and through the
 *       raw client (Datastore {@code put} of an entity; Azure Tables {@code upsertEntity} in
 *       replace mode), each on its own keys of a partition-key-only table, on the Firestore
 *       emulator in Datastore mode and on Azurite (started by sdk-test). Every put replaces an item
 *       written in the warm-up. Target: with a blob store at most 1.1 times the raw client.
 *   <li>{@code overwrite}: overwriting a 1 MB item that overflows ({@link OverflowOverwriteBench}'s
 *       two sides) on the in-memory driver with an in-memory and a file blob store. Target: at most
 *       1.2 times the same bytes by hand with SHA-256.
 * </ul>
 *
 * <pre>
 * java -Dstowage.azurite=node_modules/azurite \
 *     -cp sdk-test/target/classes:sdk-bench/target/benchmarks.jar \
 *     dev.stowage.bench.OverflowPutComparison [rounds=3] [groups=datastore,azure,overwrite]
 * </pre>
 *
 * <p>sdk-test's own classes come first on the class path: the emulators run with the class path
 * entry that holds them, and the benchmark jar's protobuf runtime would break the Firestore
 * emulator's.
 */
public final class OverflowPutComparison {
  private static final int KEYS = 100;

  /**
   * Puts of every side before the first round. The emulators compile their own hot paths (Azurite's
   * Node.js, the Datastore emulator's JVM) over the first thousand or so requests: with 200 puts of
   * warm-up, the raw put on Azurite still fell from about 1,050 to 420 us over nine rounds, and the
   * first rounds' ratios said more about which side ran first than about either side.
   */
  private static final int WARMUP_PUTS = 2_000;

  private static final String EMULATORS = "dev.stowage.test.Emulators";

  private OverflowPutComparison() {}

  public static void main(String[] args) throws Throwable {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    List<String> groups =
        List.of((args.length > 1 ? args[1] : "datastore,azure,overwrite").split(","));
    System.out.print(Alternating.header(rounds));
    try {
      if (groups.contains("datastore")) {
        print(datastore(rounds));
      }
      if (groups.contains("azure")) {
        print(azure(rounds));
      }
      if (groups.contains("overwrite")) {
        print(overwrite(rounds, "memory"));
        print(overwrite(rounds, "file"));
      }
    } finally {
      emulators("stopAll", null);
    }
    System.exit(0);
  }

  private static String datastore(int rounds) throws Throwable {
    Datastore client = (Datastore) call(emulators("datastore", shared()), "client");
    KeyFactory keys = client.newKeyFactory().setKind("bench_raw_users");
    Table withBlobs = table(DatastoreDriver.of(client), "dsblobs", true);
    Table without = table(DatastoreDriver.of(client), "dsplain", false);
    List<Alternating.Side> sides =
        List.of(
            new Alternating.Side("stowageBlobStore", i -> withBlobs.put(item("b", i))),
            new Alternating.Side("stowage", i -> without.put(item("s", i))),
            new Alternating.Side(
                "raw",
                i -> {
                  long n = i % KEYS;
                  client.put(
                      Entity.newBuilder(keys.newKey("r#" + n))
                          .set("name", name(n))
                          .set("email", email(n))
                          .set("age", 20 + n % 50)
                          .set("active", n % 3 != 0)
                          .set("score", 1000 + n * 37)
                          .set("city", city(n))
                          .build());
                }));
    return compare("datastore", sides, rounds, 10, 40);
  }

  private static String azure(int rounds) throws Throwable {
    String connection = (String) call(emulators("azurite", shared()), "connectionString");
    TableServiceClient service =
        new TableServiceClientBuilder().connectionString(connection).buildClient();
    service.createTableIfNotExists("benchrawusers");
    TableClient raw = service.getTableClient("benchrawusers");
    Table withBlobs = table(AzureTablesDriver.fromConnectionString(connection), "azblobs", true);
    Table without = table(AzureTablesDriver.fromConnectionString(connection), "azplain", false);
    List<Alternating.Side> sides =
        List.of(
            new Alternating.Side("stowageBlobStore", i -> withBlobs.put(item("b", i))),
            new Alternating.Side("stowage", i -> without.put(item("s", i))),
            new Alternating.Side(
                "raw",
                i -> {
                  long n = i % KEYS;
                  TableEntity e =
                      new TableEntity("r-" + n, "k")
                          .addProperty("name", name(n))
                          .addProperty("email", email(n))
                          .addProperty("age", 20 + n % 50)
                          .addProperty("active", n % 3 != 0)
                          .addProperty("score", 1000 + n * 37)
                          .addProperty("city", city(n));
                  raw.upsertEntityWithResponse(e, TableEntityUpdateMode.REPLACE, null, null);
                }));
    return compare("azure", sides, rounds, 10, 40);
  }

  private static String compare(
      String backend, List<Alternating.Side> sides, int rounds, int blocks, int ops) {
    return new Alternating(rounds, new Alternating.Counted(blocks, ops, WARMUP_PUTS))
        .measure(backend + " put", "", sides)
        .lines(
            List.of(
                Alternating.Pair.time(
                    backend + " put, blob store configured vs raw client",
                    "stowageBlobStore",
                    "raw",
                    1.1),
                Alternating.Pair.time(
                    backend + " put, no blob store vs raw client", "stowage", "raw", Double.NaN),
                Alternating.Pair.time(
                    backend + " put, blob store vs no blob store",
                    "stowageBlobStore",
                    "stowage",
                    Double.NaN)));
  }

  private static String overwrite(int rounds, String store) throws Exception {
    Path dir = Files.createTempDirectory("stowage-overwrite");
    Supplier<dev.stowage.overflow.BlobStore> blobs =
        () ->
            store.equals("file")
                ? new FileBlobStore(dir.resolve(Long.toString(System.nanoTime())))
                : new MemoryBlobStore();
    OverflowSides.Side stowage = OverflowSides.stowage(blobs.get());
    OverflowSides.Side byHand = OverflowSides.byHand(true, blobs.get());
    int size = 1 << 20;
    Item first = OverflowSides.document("doc-1", Payloads.filled(size));
    byte[] other = Payloads.filled(size);
    other[0] ^= 1;
    Item second = OverflowSides.document("doc-1", other);
    List<Alternating.Side> sides =
        List.of(
            new Alternating.Side("stowage", i -> stowage.put(i % 2 == 0 ? first : second)),
            new Alternating.Side("byHandSha256", i -> byHand.put(i % 2 == 0 ? first : second)));
    String title =
        String.format(Locale.ROOT, "overflow 1 MB overwrite vs by hand+SHA-256 (%s)", store);
    Alternating.Rounds measured =
        new Alternating(rounds, new Alternating.Counted(12, 20, 200)).measure(title, "", sides);
    if (stowage.blobCount() != 1 || !stowage.get("doc-1").equals(byHand.get("doc-1"))) {
      throw new IllegalStateException(
          "Stowage left " + stowage.blobCount() + " blobs for one item");
    }
    return measured.lines(List.of(Alternating.Pair.time(title, "stowage", "byHandSha256", 1.2)));
  }

  private static void print(String lines) {
    System.out.print(lines);
    System.out.flush();
  }

  /**
   * sdk-test's shared emulators, reached by reflection (sdk-test has no module descriptor). Method
   * handles resolve only the methods named, so the types of the others (GCS, S3) need not be on the
   * class path.
   */
  private static Object shared() throws Throwable {
    Class<?> c = Class.forName(EMULATORS);
    return MethodHandles.publicLookup().findStatic(c, "shared", MethodType.methodType(c)).invoke();
  }

  private static Object emulators(String method, Object shared) throws Throwable {
    Class<?> c = Class.forName(EMULATORS);
    if (shared == null) {
      return MethodHandles.publicLookup()
          .findStatic(c, method, MethodType.methodType(void.class))
          .invoke();
    }
    Class<?> type =
        Class.forName(
            "dev.stowage.test." + (method.equals("azurite") ? "Azurite" : "DatastoreEmulator"));
    return MethodHandles.publicLookup()
        .findVirtual(c, method, MethodType.methodType(type))
        .invoke(shared);
  }

  private static Object call(Object target, String method) throws Throwable {
    Class<?> type = method.equals("client") ? Datastore.class : String.class;
    return MethodHandles.publicLookup()
        .findVirtual(target.getClass(), method, MethodType.methodType(type))
        .invoke(target);
  }

  private static Table table(StorageDriver driver, String namespace, boolean blobStore) {
    Stowage.Builder b = Stowage.builder(driver).namespace(namespace);
    if (blobStore) {
      b.blobStore(new MemoryBlobStore());
    }
    return b.build()
        .ensureTable(TableSpec.builder("users", KeySchema.of("pk", AttributeType.STRING)).build());
  }

  private static Item item(String side, int i) {
    long n = i % KEYS;
    return Item.builder()
        .put("pk", side + "#" + n)
        .put("name", name(n))
        .put("email", email(n))
        .put("age", 20 + n % 50)
        .put("active", n % 3 != 0)
        .put("score", 1000 + n * 37)
        .put("city", city(n))
        .build();
  }

  private static String name(long n) {
    return "user-" + n;
  }

  private static String email(long n) {
    return "user" + n + "@example.org";
  }

  private static String city(long n) {
    return List.of("Lisbon", "Oslo", "Lyon", "Porto", "Turin").get((int) (n % 5));
  }
}
