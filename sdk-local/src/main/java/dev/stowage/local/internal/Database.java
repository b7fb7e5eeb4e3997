package dev.stowage.local.internal;

import dev.stowage.ConflictException;
import dev.stowage.StowageException;
import dev.stowage.UnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The SQLite file and its connections: one writer connection, used under a lock so that this
 * process's writers queue in the JVM instead of polling SQLite's lock, and a pool of reader
 * connections. The file is in WAL mode, so readers read a committed snapshot while a writer writes,
 * and other processes on the same file wait for the write lock for up to the busy timeout.
 *
 * <p>Every write is one {@code BEGIN IMMEDIATE} transaction (it takes the file's write lock before
 * reading, so a read-check-write never races another process), committed whole or rolled back
 * whole. Every read runs in one read transaction, so what it reads is one consistent snapshot.
 * Thread-safe.
 */
public final class Database implements AutoCloseable {
  /** Work on a connection inside a transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  private final Path file;
  private final SQLiteDataSource source;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final ConcurrentLinkedQueue<Connection> readers = new ConcurrentLinkedQueue<>();
  private Connection writer; // guarded by writeLock
  private volatile boolean closed;

  /**
   * Opens (creating when missing) the file and its schema.
   *
   * @param durable whether each commit waits until the file is on disk (SQLite's {@code
   *     synchronous=FULL}); otherwise a commit survives the process crashing but a power loss may
   *     undo the last commits (never corrupting the file)
   */
  public Database(Path file, Duration busyTimeout, boolean durable) {
    this.file = file.toAbsolutePath().normalize();
    try {
      Path dir = this.file.getParent();
      if (dir != null) {
        Files.createDirectories(dir);
      }
    } catch (IOException e) {
      throw new UnavailableException("cannot create the directory of " + this.file, e);
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(
        durable ? SQLiteConfig.SynchronousMode.FULL : SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
    source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + this.file);
    write(Schema::create);
  }

  /** The file. */
  public Path file() {
    return file;
  }

  /** Runs {@code work} in one read transaction (a consistent snapshot). */
  public <T> T read(Work<T> work) {
    Connection c = reader();
    boolean healthy = false;
    try {
      exec(c, "BEGIN DEFERRED");
      try {
        T result = work.run(c);
        exec(c, "COMMIT");
        healthy = true;
        return result;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(c);
        healthy = true;
        throw e;
      }
    } catch (SQLException e) {
      throw translate("reading " + file, e, false);
    } finally {
      release(c, healthy);
    }
  }

  /**
   * Runs {@code work} in one write transaction: committed if it returns, rolled back if it throws
   * (a {@link dev.stowage.ConditionFailedException} then writes nothing).
   */
  public <T> T write(Work<T> work) {
    writeLock.lock();
    try {
      Connection c = writer();
      try {
        exec(c, "BEGIN IMMEDIATE");
      } catch (SQLException e) {
        throw translate("waiting to write " + file, e, false);
      }
      T result;
      try {
        result = work.run(c);
        Faults.beforeCommit(c);
      } catch (SQLException e) {
        rollbackQuietly(c);
        throw translate("writing " + file, e, false);
      } catch (RuntimeException | Error e) {
        rollbackQuietly(c);
        throw e;
      }
      try {
        exec(c, "COMMIT");
      } catch (SQLException e) {
        rollbackQuietly(c);
        throw translate("committing to " + file, e, true);
      }
      return result;
    } finally {
      writeLock.unlock();
    }
  }

  private Connection writer() {
    if (closed) {
      throw new IllegalStateException("the local store " + file + " is closed");
    }
    if (writer == null || isClosed(writer)) {
      writer = connect();
    }
    return writer;
  }

  private static boolean isClosed(Connection c) {
    try {
      return c.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  private Connection reader() {
    if (closed) {
      throw new IllegalStateException("the local store " + file + " is closed");
    }
    Connection c = readers.poll();
    return c != null ? c : connect();
  }

  private void release(Connection c, boolean healthy) {
    if (healthy && !closed) {
      readers.add(c);
      if (!closed || !readers.remove(c)) {
        return; // pooled, or close() took it
      }
    }
    closeQuietly(c);
  }

  private Connection connect() {
    try {
      return source.getConnection();
    } catch (SQLException e) {
      throw translate("opening " + file, e, false);
    }
  }

  static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static void rollbackQuietly(Connection c) {
    try {
      if (!c.isClosed()) {
        exec(c, "ROLLBACK");
      }
    } catch (SQLException ignored) {
      // No transaction left to roll back (SQLite rolls back by itself on some errors).
    }
  }

  private static void closeQuietly(Connection c) {
    try {
      c.close();
    } catch (SQLException ignored) {
      // Closing is best effort; SQLite's own recovery covers a connection that died.
    }
  }

  /**
   * The exception for a failed SQLite call: the file's lock held past the busy timeout (another
   * writer, in this or another process) is a {@link ConflictException}, retryable, with nothing
   * written; anything else is the store being unavailable.
   */
  static StowageException translate(String what, SQLException e, boolean outcomeUnknown) {
    int primary = e.getErrorCode() & 0xff;
    if (primary == 5 /* SQLITE_BUSY */ || primary == 6 /* SQLITE_LOCKED */) {
      return new ConflictException(
          what + ": another writer held the file's lock past the busy timeout", e);
    }
    String message = what + ": " + e.getMessage();
    return outcomeUnknown
        ? UnavailableException.writeOutcomeUnknown(message, e)
        : new UnavailableException(message, e);
  }

  /** Closes every connection; SQLite checkpoints the WAL into the file when the last one closes. */
  @Override
  public void close() {
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (writer != null) {
        closeQuietly(writer);
        writer = null;
      }
    } finally {
      writeLock.unlock();
    }
    for (Connection c; (c = readers.poll()) != null; ) {
      closeQuietly(c);
    }
  }
}
