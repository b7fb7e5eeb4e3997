package dev.stowage.azure.internal;

import dev.stowage.UnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/** Runs independent requests on the driver's executor and waits for all of them. */
final class Parallel {
  private Parallel() {}

  /**
   * Applies {@code action} to every task, in parallel when there are several, and returns once all
   * have finished, so that nothing is still being written when a failure is reported. The first
   * failure is rethrown.
   */
  static <T> void run(ExecutorService executor, List<T> tasks, Consumer<T> action) {
    if (tasks.size() == 1) {
      action.accept(tasks.get(0));
      return;
    }
    List<CompletableFuture<Void>> futures = new ArrayList<>(tasks.size());
    for (T task : tasks) {
      futures.add(CompletableFuture.runAsync(() -> action.accept(task), executor));
    }
    RuntimeException first = null;
    for (CompletableFuture<Void> f : futures) {
      try {
        f.join();
      } catch (CompletionException e) {
        if (first == null) {
          first =
              e.getCause() instanceof RuntimeException re
                  ? re
                  : new UnavailableException("Azure Table Storage request failed", e.getCause());
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
