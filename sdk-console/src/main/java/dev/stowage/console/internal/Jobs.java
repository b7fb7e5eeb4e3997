package dev.stowage.console.internal;

import dev.stowage.DeleteJob;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The delete jobs the console started: each runs on its own thread, reports its progress after
 * every page (the browser polls it) and can be cancelled. Thread-safe.
 */
final class Jobs {
  private final Map<String, Running> jobs = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "stowage-console-job");
            t.setDaemon(true);
            return t;
          });

  /** Starts a job; {@code make} builds it with the given progress listener. */
  String start(String description, java.util.function.Function<DeleteJob.Options, DeleteJob> make) {
    String id = Integer.toString(ids.incrementAndGet());
    Running r = new Running(description);
    DeleteJob job = make.apply(DeleteJob.Options.DEFAULT.withProgress(p -> r.progress = p));
    r.job = job;
    jobs.put(id, r);
    threads.execute(
        () -> {
          try {
            DeleteJob.Progress last = job.run();
            r.progress = last;
            r.state = last.done() ? "done" : "cancelled";
          } catch (RuntimeException e) {
            r.error = String.valueOf(e.getMessage());
            r.state = "failed";
          }
        });
    return id;
  }

  /** Asks a job to stop after its current page. */
  void cancel(String id) {
    running(id).job.cancel();
  }

  /** A job's state and progress for the browser. */
  Map<String, Object> describe(String id) {
    Running r = running(id);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("description", r.description);
    m.put("state", r.state);
    DeleteJob.Progress p = r.progress;
    m.put("matched", p == null ? 0 : p.matched());
    m.put("deleted", p == null ? 0 : p.deleted());
    m.put("blobsDeleted", p == null ? 0 : p.blobsDeleted());
    m.put("elapsedMillis", p == null ? 0 : p.elapsed().toMillis());
    m.put("resumeToken", p == null ? null : p.resumeToken());
    m.put("error", r.error);
    return m;
  }

  /** Cancels every running job and stops the threads. */
  void close() {
    jobs.values().forEach(r -> r.job.cancel());
    threads.shutdown();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Running running(String id) {
    Running r = jobs.get(id);
    if (r == null) {
      throw new NoSuchElementException("no job " + id);
    }
    return r;
  }

  private static final class Running {
    final String description;
    volatile DeleteJob job;
    volatile DeleteJob.Progress progress;
    volatile String state = "running";
    volatile String error;

    Running(String description) {
      this.description = description;
    }
  }
}
