package dev.stowage.datastore.internal;

import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Transaction;

/** Helpers for Datastore transactions. Stateless and thread-safe. */
public final class Transactions {
  private Transactions() {}

  /**
   * Rolls back a transaction that was not committed. The Firestore emulator (and Firestore in
   * Datastore mode) lock pessimistically, so an abandoned transaction would block others until it
   * times out. A failing rollback is ignored: the server expires the transaction anyway.
   */
  public static void rollbackQuietly(Transaction tx) {
    try {
      if (tx.isActive()) {
        tx.rollback();
      }
    } catch (DatastoreException | IllegalStateException ignored) {
      // The transaction is gone either way.
    }
  }
}
