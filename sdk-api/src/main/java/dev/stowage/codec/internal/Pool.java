package dev.stowage.codec.internal;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A small bounded pool of reusable native contexts (zstd compression and decompression contexts
 * hold megabytes of native memory, too much to allocate per value or to keep per thread when
 * virtual threads are used). Thread-safe; when empty a new object is made, when full a returned one
 * is closed.
 */
final class Pool<T> {
  private final ArrayBlockingQueue<T> idle;
  private final Supplier<T> factory;
  private final Consumer<T> closer;

  Pool(int capacity, Supplier<T> factory, Consumer<T> closer) {
    this.idle = new ArrayBlockingQueue<>(capacity);
    this.factory = factory;
    this.closer = closer;
  }

  /** Sized for the machine: two idle contexts per core, at least four. */
  static int defaultCapacity() {
    return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  }

  T take() {
    T t = idle.poll();
    return t != null ? t : factory.get();
  }

  void give(T t) {
    if (!idle.offer(t)) {
      closer.accept(t);
    }
  }

  /** Drops a context that failed mid-operation instead of reusing it. */
  void discard(T t) {
    closer.accept(t);
  }
}
