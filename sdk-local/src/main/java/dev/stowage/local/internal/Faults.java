package dev.stowage.local.internal;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A fault-injection point for tests: runs just before a write transaction commits, after all its
 * statements. Tests make it throw, close the connection or halt the JVM to check that a transaction
 * interrupted there leaves nothing behind. Unset (null) in production.
 */
public final class Faults {
  /** What to do before each commit, or null. */
  public interface BeforeCommit {
    void run(Connection c) throws SQLException;
  }

  private static volatile BeforeCommit beforeCommit;

  private Faults() {}

  /** Sets (or with null clears) the fault. */
  public static void beforeCommit(BeforeCommit fault) {
    beforeCommit = fault;
  }

  static void beforeCommit(Connection c) throws SQLException {
    BeforeCommit f = beforeCommit;
    if (f != null) {
      f.run(c);
    }
  }
}
