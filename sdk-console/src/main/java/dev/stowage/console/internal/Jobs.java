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
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The delete jobs the console started: each runs on its own thread, reports its progress after
 * every page (the browser polls it), can be cancelled, and resumed from its last completed page.
 * Thread-safe.
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

  /**
   * Starts a job.
   *
   * @param options the job's options (the progress listener is set here)
   * @param make builds the job from its options
   * @param resume builds the job again from a resume token, to continue a cancelled or failed run
   */
  String start(
      String description,
      DeleteJob.Options options,
      Function<DeleteJob.Options, DeleteJob> make,
      BiFunction<String, DeleteJob.Options, DeleteJob> resume) {
    String id = Integer.toString(ids.incrementAndGet());
    Running r = new Running(description, options, resume);
    jobs.put(id, r);
    run(r, make.apply(options.withProgress(p -> r.progress = p)));
    return id;
  }

  /**
   * Continues a cancelled or failed job from the resume token of its last completed page; items it
   * deleted before are not counted again.
   *
   * @throws IllegalStateException if the job is running, done, or has no token yet
   */
  void resume(String id) {
    Running r = running(id);
    DeleteJob.Progress last = r.progress;
    synchronized (r) {
      if (r.state.equals("running") || r.state.equals("done")) {
        throw new IllegalArgumentException("job " + id + " is " + r.state);
      }
      if (last == null || last.resumeToken() == null) {
        throw new IllegalArgumentException("job " + id + " has no completed page to resume after");
      }
      // The token carries the counts so far: the resumed run reports totals, not its own.
      r.progress = last;
      r.error = null;
      r.state = "running";
    }
    run(r, r.resume.apply(last.resumeToken(), r.options.withProgress(p -> r.progress = p)));
  }

  private void run(Running r, DeleteJob job) {
    r.job = job;
    r.state = "running";
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
    final DeleteJob.Options options;
    final BiFunction<String, DeleteJob.Options, DeleteJob> resume;
    volatile DeleteJob job;
    volatile DeleteJob.Progress progress;
    volatile String state = "running";
    volatile String error;

    Running(
        String description,
        DeleteJob.Options options,
        BiFunction<String, DeleteJob.Options, DeleteJob> resume) {
      this.description = description;
      this.options = options;
      this.resume = resume;
    }
  }
}
