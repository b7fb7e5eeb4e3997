package dev.stowage.datastore.internal;

import com.google.cloud.datastore.Key;
import java.util.Collection;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped in-process locks that serialize this driver's own transactions on the same keys.
 *
 * <p>Firestore in Datastore mode (and its emulator) may lock pessimistically: two transactions that
 * both read a key and then both write it wait on each other until the lock timeout aborts them.
 * Serializing a driver's transactions per key stripe turns that in-process deadlock into a short
 * queue. Contention with other processes still surfaces as {@link dev.stowage.ConflictException}
 * from the service. Thread-safe.
 */
public final class KeyLocks {
  private static final int STRIPES = 256;
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  /** A fresh set of stripes. */
  public KeyLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  /** Runs {@code action} holding the stripes of {@code keys}, taken in ascending stripe order. */
  public <T> T withLocks(Collection<Key> keys, java.util.function.Supplier<T> action) {
    TreeSet<Integer> stripes = new TreeSet<>();
    keys.forEach(k -> stripes.add(Math.floorMod(k.hashCode(), STRIPES)));
    for (int s : stripes) {
      locks[s].lock();
    }
    try {
      return action.get();
    } finally {
      for (int s : stripes.descendingSet()) {
        locks[s].unlock();
      }
    }
  }
}
