package dev.stowage.bench;

import dev.stowage.KeySchema;
import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.local.LocalDriver;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Get, put and query of small items through Stowage on the local store ({@code *Stowage}) against
 * SQLite through JDBC as an application would use it by hand ({@code *Raw}, the anchor): each side
 * on its own file in one temporary directory, both in WAL mode with {@code synchronous=NORMAL}.
 *
 * <p>The raw side's table is what an application would write: {@code users(pk TEXT, sk INTEGER,
 * name, email, age, active, score, city, PRIMARY KEY(pk, sk))}, one connection in auto-commit mode,
 * a statement prepared per call, each row read back into a map of its columns. Both sides hold 20
 * partitions of 10 {@link SmallItems}; gets read a rotating key, queries one whole partition (10
 * items, page size 25), puts overwrite a rotating key. Stowage's side pays for what the local store
 * adds per operation: a read transaction with a table lookup for reads, a write transaction that
 * reads the item, checks and takes a token for puts, and the canonical encoding of items.
 *
 * <p>Not forked ({@code @Fork(0)}): methods are named so that JMH's alphabetical order alternates
 * the sides, and with {@code ROUNDS=N} the whole selection repeats.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(0)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class LocalStoreBench {
  static final int PARTITIONS = 20;
  static final int PER_PARTITION = 10;
  static final int PAGE = 25;

  private static Shared shared;

  private Connection raw;
  private Table table;
  private int next;

  private record Shared(Connection raw, Table table) {}

  /** Creates and loads both files (once per JVM). */
  @Setup(Level.Trial)
  public void start() {
    synchronized (LocalStoreBench.class) {
      if (shared == null) {
        shared = create();
      }
    }
    raw = shared.raw();
    table = shared.table();
  }

  private static Shared create() {
    try {
      Path dir = Files.createTempDirectory("stowage-local-bench-");
      Stowage stowage = Stowage.builder(LocalDriver.open(dir.resolve("stowage.db"))).build();
      Table table =
          stowage.ensureTable(
              TableSpec.builder(
                      "bench_users",
                      KeySchema.of(
                          SmallItems.PK, AttributeType.STRING, SmallItems.SK, AttributeType.NUMBER))
                  .build());
      SQLiteConfig config = new SQLiteConfig();
      config.setJournalMode(SQLiteConfig.JournalMode.WAL);
      config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
      config.setBusyTimeout(10_000);
      SQLiteDataSource source = new SQLiteDataSource(config);
      source.setUrl("jdbc:sqlite:" + dir.resolve("raw.db"));
      Connection raw = source.getConnection();
      try (Statement s = raw.createStatement()) {
        s.execute(
            "CREATE TABLE users(pk TEXT NOT NULL, sk INTEGER NOT NULL, name TEXT, email TEXT,"
                + " age INTEGER, active INTEGER, score INTEGER, city TEXT, PRIMARY KEY(pk, sk))");
      }
      for (int p = 0; p < PARTITIONS; p++) {
        List<Item> items = new ArrayList<>();
        for (int s = 0; s < PER_PARTITION; s++) {
          items.add(SmallItems.stowage(SmallItems.partition("u", p), s));
          putRaw(raw, SmallItems.partition("u", p), s);
        }
        table.batchPut(items);
      }
      return new Shared(raw, table);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private String partition() {
    return SmallItems.partition("u", (next++ & 0x7fffffff) % PARTITIONS);
  }

  private long sort() {
    return (next * 7L & 0x7fffffff) % PER_PARTITION;
  }

  @Benchmark
  public Map<String, Object> getRaw() throws SQLException {
    try (PreparedStatement s =
        raw.prepareStatement(
            "SELECT pk, sk, name, email, age, active, score, city FROM users WHERE pk = ? AND sk = ?")) {
      s.setString(1, partition());
      s.setLong(2, sort());
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? row(r) : null;
      }
    }
  }

  @Benchmark
  public Item getStowage() {
    return table.get(Key.of(partition(), sort())).orElse(null);
  }

  @Benchmark
  public int putRaw() throws SQLException {
    return putRaw(raw, partition(), sort());
  }

  @Benchmark
  public void putStowage() {
    table.put(SmallItems.stowage(partition(), sort()));
  }

  @Benchmark
  public List<Map<String, Object>> queryRaw() throws SQLException {
    try (PreparedStatement s =
        raw.prepareStatement(
            "SELECT pk, sk, name, email, age, active, score, city FROM users WHERE pk = ?"
                + " ORDER BY sk LIMIT ?")) {
      s.setString(1, partition());
      s.setInt(2, PAGE);
      List<Map<String, Object>> out = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(row(r));
        }
      }
      return out;
    }
  }

  @Benchmark
  public Page queryStowage() {
    return table.query(Query.partition(partition()).limit(PAGE).build());
  }

  private static int putRaw(Connection c, String pk, long sk) throws SQLException {
    Item i = SmallItems.stowage(pk, sk);
    try (PreparedStatement s =
        c.prepareStatement("INSERT OR REPLACE INTO users VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setString(1, pk);
      s.setLong(2, sk);
      s.setString(3, i.getString("name"));
      s.setString(4, i.getString("email"));
      s.setLong(5, i.getLong("age"));
      s.setInt(6, i.getBoolean("active") ? 1 : 0);
      s.setLong(7, i.getLong("score"));
      s.setString(8, i.getString("city"));
      return s.executeUpdate();
    }
  }

  private static Map<String, Object> row(ResultSet r) throws SQLException {
    Map<String, Object> m = new LinkedHashMap<>(16);
    m.put("pk", r.getString(1));
    m.put("sk", r.getLong(2));
    m.put("name", r.getString(3));
    m.put("email", r.getString(4));
    m.put("age", r.getLong(5));
    m.put("active", r.getInt(6) != 0);
    m.put("score", r.getLong(7));
    m.put("city", r.getString(8));
    return m;
  }
}
