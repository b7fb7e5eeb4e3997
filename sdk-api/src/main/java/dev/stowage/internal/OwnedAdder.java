package dev.stowage.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.LongAdder;

/**
 * A sum like {@link LongAdder} whose first thread to add to it adds without an atomic instruction.
 * Most stores are used by one thread at a time (an application's unit tests on the memory driver, a
 * job's worker), and each request adds to several counters: an uncontended {@link LongAdder} still
 * takes a compare-and-swap per add, which on the memory driver is a noticeable share of a request.
 * The owning thread (by id, which the JVM never reuses) keeps its part in a field only it writes,
 * read by others with opaque reads; every other thread adds to a {@link LongAdder}. The sum is the
 * two parts, with {@link LongAdder#sum()}'s guarantees: exact once the adding threads are done (a
 * happens-before edge such as {@link Thread#join}), a recent value meanwhile. Thread-safe.
 */
final class OwnedAdder {
  private static final VarHandle OWN;
  private static final VarHandle OWNER;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      OWN = l.findVarHandle(OwnedAdder.class, "own", long.class);
      OWNER = l.findVarHandle(OwnedAdder.class, "owner", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The id of the thread that owns {@link #own}, 0 before the first add (ids start at 1). */
  @SuppressWarnings("unused") // through OWNER
  private volatile long owner;

  /** The owner's part: written by the owner only (opaque, so never torn), read by anyone. */
  @SuppressWarnings("unused") // through OWN
  private long own;

  private final LongAdder others = new LongAdder();

  /** Adds {@code x}. */
  void add(long x) {
    long me = Thread.currentThread().getId();
    long o = owner;
    if (o == me || o == 0 && OWNER.compareAndSet(this, 0L, me)) {
      // Only this thread writes the field: a plain read of it is its own last write.
      OWN.setOpaque(this, (long) OWN.get(this) + x);
    } else {
      others.add(x);
    }
  }

  /** Adds one. */
  void increment() {
    add(1);
  }

  /** The sum. */
  long sum() {
    return (long) OWN.getOpaque(this) + others.sum();
  }

  @Override
  public String toString() {
    return Long.toString(sum());
  }
}
