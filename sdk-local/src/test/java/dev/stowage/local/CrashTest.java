package dev.stowage.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.KeySchema;
import dev.stowage.UnavailableException;
import dev.stowage.item.AttributeType;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.local.internal.Faults;
import dev.stowage.spi.DriverScan;
import dev.stowage.spi.Expectation;
import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import dev.stowage.spi.TxOp;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A write interrupted at its last moment (every statement run, the commit not yet) leaves nothing
 * behind: not when it throws, not when its connection dies, not when its process is killed with
 * megabytes of the transaction already in the write-ahead log.
 */
class CrashTest {
  static final KeySchema SCHEMA =
      KeySchema.of("p", AttributeType.STRING, "s", AttributeType.NUMBER);
  static final TableLayout A =
      new TableLayout(
          new TableRef("", "alpha"),
          SCHEMA,
          List.of(
              new IndexLayout(
                  "byTag",
                  "tag",
                  null,
                  dev.stowage.IndexSpec.Projection.ALL,
                  "tags",
                  AttributeType.STRING,
                  null)));
  static final TableLayout B = new TableLayout(new TableRef("", "beta"), SCHEMA, List.of());

  @AfterEach
  void clearFaults() {
    Faults.beforeCommit(null);
  }

  static Item item(String p, long s, int bytes) {
    return Item.builder()
        .put("p", p)
        .put("s", s)
        .put("tag", "t")
        .put("body", "y".repeat(bytes))
        .build();
  }

  static List<TxOp> transaction(int items, int bytes) {
    List<TxOp> ops = new ArrayList<>();
    for (int i = 0; i < items; i++) {
      TableLayout l = i % 2 == 0 ? A : B;
      ops.add(new TxOp.Put(l.ref(), Key.of("tx", i), item("tx", i, bytes), Expectation.ABSENT));
    }
    ops.add(new TxOp.Delete(A.ref(), Key.of("before", 1), Expectation.ANY));
    return ops;
  }

  static void prepare(LocalDriver d) {
    d.ensureTable(A);
    d.ensureTable(B);
    d.put(A, item("before", 1, 10), Expectation.ANY, false);
  }

  /** Asserts the file holds exactly the item written before the interrupted transaction. */
  static void assertUntouched(Path file) throws Exception {
    try (LocalDriver d = LocalDriver.open(file)) {
      assertThat(d.scan(A, new DriverScan(1000, null, true)).items())
          .extracting(s -> s.item().getString("p"))
          .containsExactly("before");
      assertThat(d.scan(B, new DriverScan(1000, null, true)).items()).isEmpty();
      assertThat(
              d.query(
                      A,
                      new dev.stowage.spi.DriverQuery(
                          "byTag",
                          dev.stowage.item.AttributeValue.of("t"),
                          dev.stowage.spi.KeyRange.ALL,
                          false,
                          100,
                          null,
                          true))
                  .items())
          .hasSize(1);
      // The driver writes again, and the file is sound.
      d.transactWrite(List.of(A, B), transaction(4, 10));
      assertThat(d.scan(B, new DriverScan(1000, null, true)).items()).hasSize(2);
    }
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + file);
        ResultSet r = c.createStatement().executeQuery("PRAGMA integrity_check")) {
      r.next();
      assertThat(r.getString(1)).isEqualTo("ok");
    }
  }

  @Test
  void aTransactionFailingBeforeItsCommitWritesNothing() throws Exception {
    Path file = TempStores.directory().resolve("throw.db");
    try (LocalDriver d = LocalDriver.open(file)) {
      prepare(d);
      Faults.beforeCommit(
          c -> {
            throw new IllegalStateException("injected");
          });
      assertThatThrownBy(() -> d.transactWrite(List.of(A, B), transaction(20, 1000)))
          .hasMessage("injected");
      Faults.beforeCommit(null);
      // The same driver goes on, and sees nothing of it.
      assertThat(d.get(B, Key.of("tx", 1), true)).isEmpty();
    }
    assertUntouched(file);
  }

  @Test
  void aConnectionClosedMidTransactionWritesNothing() throws Exception {
    Path file = TempStores.directory().resolve("closed.db");
    try (LocalDriver d = LocalDriver.open(file)) {
      prepare(d);
      Faults.beforeCommit(java.sql.Connection::close);
      assertThatThrownBy(() -> d.transactWrite(List.of(A, B), transaction(20, 1000)))
          .isInstanceOf(UnavailableException.class);
      Faults.beforeCommit(null);
      assertThat(d.get(B, Key.of("tx", 1), true)).isEmpty();
      // The driver opens a new connection for its next write.
      d.put(B, item("after", 1, 10), Expectation.ANY, false);
      d.delete(B, Key.of("after", 1), Expectation.ANY, false);
    }
    assertUntouched(file);
  }

  @Test
  void aProcessKilledMidTransactionWritesNothing() throws Exception {
    Path file = TempStores.directory().resolve("killed.db");
    try (LocalDriver d = LocalDriver.open(file)) {
      prepare(d);
    }
    // 100 items of 100 KB: far more than SQLite's page cache, so most of the transaction is in the
    // write-ahead log, without its commit record, when the process dies.
    Process child = ChildProcess.start(HaltingWriter.class, file.toString());
    int exit = ChildProcess.await(child);
    assertThat(exit).as(ChildProcess.output(child)).isEqualTo(HaltingWriter.HALTED);
    assertThat(file.resolveSibling("killed.db-wal")).exists();
    assertUntouched(file);
  }

  /** Writes a large transaction and halts the JVM just before it commits. */
  public static final class HaltingWriter {
    static final int HALTED = 42;

    public static void main(String[] args) {
      LocalDriver d = LocalDriver.open(Path.of(args[0]));
      Faults.beforeCommit(c -> Runtime.getRuntime().halt(HALTED));
      d.transactWrite(List.of(A, B), transaction(100, 100_000));
      System.exit(1); // not reached
    }
  }
}
