package dev.stowage.bench;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.QueryResults;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.OrderBy;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.datastore.DatastoreDriver;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.test.Emulators;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Get, put and query of small items through Stowage's Datastore driver ({@code *Stowage}) against
 * the raw {@link Datastore} client ({@code *Raw}, the anchor), on one Firestore emulator in
 * Datastore mode, one shared client, no blob store.
 *
 * <p>Both sides use 20 partitions of 10 {@link SmallItems} items. Stowage's table (string partition
 * key, number sort key) is its own layout, created through Stowage; the raw side's kind is what an
 * application would write by hand to query a partition in sort order without a composite index: key
 * name {@code <partition>/<zero-padded sort>}, a partition read as the key range {@code
 * [<partition>/, <partition>0)} ordered by key, which is also the request Stowage sends. Gets read
 * a rotating key, queries one whole partition (limit 25: one request on each side), puts overwrite
 * a rotating key in each side's own partitions.
 *
 * <p>Not forked, named to alternate the sides, as {@link AzureTablesBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(0)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class DatastoreBench {
  static final int PARTITIONS = 20;
  static final int PER_PARTITION = 10;
  static final int PAGE = 25;
  static final String RAW_KIND = "bench_raw";

  private static Shared shared;

  private Datastore raw;
  private KeyFactory keys;
  private Table table;
  private int next;

  private record Shared(Datastore raw, KeyFactory keys, Table table) {}

  /** Starts the emulator (once per JVM), creates and loads both sides. */
  @Setup(Level.Trial)
  public void start() {
    synchronized (DatastoreBench.class) {
      if (shared == null) {
        shared = create();
      }
    }
    raw = shared.raw();
    keys = shared.keys();
    table = shared.table();
  }

  private static Shared create() {
    Datastore raw = Emulators.shared().datastore().client();
    Stowage stowage = Stowage.builder(DatastoreDriver.of(raw)).build();
    Table table =
        stowage.ensureTable(
            TableSpec.builder(
                    "bench_users",
                    KeySchema.of(
                        SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
                .build());
    KeyFactory keys = raw.newKeyFactory().setKind(RAW_KIND);
    for (int p = 0; p < PARTITIONS; p++) {
      List<Item> items = new ArrayList<>();
      List<Entity> entities = new ArrayList<>();
      for (int s = 0; s < PER_PARTITION; s++) {
        items.add(SmallItems.stowage(SmallItems.partition("u", p), s));
        entities.add(entity(keys, SmallItems.partition("u", p), s));
      }
      table.batchPut(items);
      raw.put(entities.toArray(new Entity[0]));
    }
    Shared s = new Shared(raw, keys, table);
    verifySidesAgree(s);
    return s;
  }

  static String name(String pk, long sk) {
    return pk + "/" + String.format(Locale.ROOT, "%010d", sk);
  }

  /** The item as the raw side writes it. */
  static Entity entity(KeyFactory keys, String pk, long sk) {
    Item i = SmallItems.stowage(pk, sk);
    return Entity.newBuilder(keys.newKey(name(pk, sk)))
        .set(SmallItems.PK, pk)
        .set(SmallItems.SK, sk)
        .set("name", i.getString("name"))
        .set("email", i.getString("email"))
        .set("age", i.getLong("age"))
        .set("active", i.getBoolean("active"))
        .set("score", i.getLong("score"))
        .set("city", i.getString("city"))
        .build();
  }

  private static void verifySidesAgree(Shared s) {
    String pk = SmallItems.partition("u", 7);
    Item viaStowage = s.table().get(dev.stowage.item.Key.of(pk, 3)).orElseThrow();
    if (!viaStowage.equals(SmallItems.stowage(pk, 3))) {
      throw new IllegalStateException("Stowage read " + viaStowage);
    }
    Entity viaRaw = s.raw().get(s.keys().newKey(name(pk, 3)));
    if (!viaStowage.getString("email").equals(viaRaw.getString("email"))) {
      throw new IllegalStateException("raw read " + viaRaw);
    }
    DatastoreBench b = new DatastoreBench();
    b.raw = s.raw();
    b.keys = s.keys();
    b.table = s.table();
    if (b.queryStowage().items().size() != PER_PARTITION || b.queryRaw() != PER_PARTITION) {
      throw new IllegalStateException("queries do not return the whole partition");
    }
  }

  private int rotate() {
    return next++ & 0x7fffffff;
  }

  // ---- get ----

  @Benchmark
  public Entity getRaw() {
    int i = rotate();
    return raw.get(keys.newKey(name(SmallItems.partition("u", i % PARTITIONS), i % PER_PARTITION)));
  }

  @Benchmark
  public Optional<Item> getStowage() {
    int i = rotate();
    return table.get(
        dev.stowage.item.Key.of(SmallItems.partition("u", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- put ----

  @Benchmark
  public Entity putRaw() {
    int i = rotate();
    return raw.put(entity(keys, SmallItems.partition("raw", i % PARTITIONS), i % PER_PARTITION));
  }

  @Benchmark
  public void putStowage() {
    int i = rotate();
    table.put(SmallItems.stowage(SmallItems.partition("sto", i % PARTITIONS), i % PER_PARTITION));
  }

  // ---- query ----

  @Benchmark
  public int queryRaw() {
    int i = rotate();
    String pk = SmallItems.partition("u", i % PARTITIONS);
    EntityQuery q =
        com.google.cloud.datastore.Query.newEntityQueryBuilder()
            .setKind(RAW_KIND)
            .setFilter(
                CompositeFilter.and(
                    PropertyFilter.ge("__key__", keys.newKey(pk + "/")),
                    PropertyFilter.lt("__key__", keys.newKey(pk + "0"))))
            .setOrderBy(OrderBy.asc("__key__"))
            .setLimit(PAGE)
            .build();
    QueryResults<Entity> r = raw.run(q);
    int n = 0;
    while (r.hasNext()) {
      r.next();
      n++;
    }
    return n;
  }

  @Benchmark
  public Page queryStowage() {
    int i = rotate();
    return table.query(
        Query.partition(SmallItems.partition("u", i % PARTITIONS)).limit(PAGE).build());
  }
}
