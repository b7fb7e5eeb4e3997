package dev.stowage.console.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs the console started (delete-by-index, migration): each runs on its own thread, reports
 * its progress as it goes (the browser polls it), can be cancelled, and resumed from where it
 * stopped after a cancel or a failure. Thread-safe.
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
   * What a kind of job does. A task is built ready to run (so bad input fails before the job
   * exists); between runs it is told to {@linkplain #prepareResume() prepare} the next one.
   */
  interface Task {
    /**
     * Runs until the job is done, cancelled or fails.
     *
     * @return true if the job is done, false if it was cancelled
     */
    boolean run();

    /** Asks the running run to stop at its next safe point (between pages). */
    void cancel();

    /**
     * Makes the next {@link #run()} continue from where the stopped one left off.
     *
     * @throws IllegalArgumentException if there is nothing to continue from
     */
    void prepareResume();

    /** Adds the job's kind and progress (totals over all its runs) for the browser. */
    void describe(Map<String, Object> into);

    /** Releases what the job keeps for resuming; called when the console closes. */
    default void close() {}
  }

  /** Starts a job running {@code task}; returns its id. */
  String start(String description, Task task) {
    String id = Integer.toString(ids.incrementAndGet());
    Running r = new Running(description, task);
    jobs.put(id, r);
    run(r);
    return id;
  }

  /**
   * Continues a cancelled or failed job from where it stopped; what it did before is not done or
   * counted again.
   *
   * @throws IllegalArgumentException if the job is running, done, or cannot be continued
   */
  void resume(String id) {
    Running r = running(id);
    synchronized (r) {
      if (r.state.equals("running") || r.state.equals("done")) {
        throw new IllegalArgumentException("job " + id + " is " + r.state);
      }
      r.task.prepareResume();
      r.error = null;
      r.state = "running";
    }
    run(r);
  }

  private void run(Running r) {
    r.state = "running";
    threads.execute(
        () -> {
          try {
            boolean done = r.task.run();
            r.state = done ? "done" : "cancelled";
          } catch (RuntimeException e) {
            r.error = String.valueOf(e.getMessage());
            r.state = "failed";
          }
        });
  }

  /** Asks a job to stop after its current page. */
  void cancel(String id) {
    running(id).task.cancel();
  }

  /** A job's state and progress for the browser. */
  Map<String, Object> describe(String id) {
    Running r = running(id);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", id);
    m.put("description", r.description);
    m.put("state", r.state);
    r.task.describe(m);
    m.put("error", r.error);
    return m;
  }

  /** Cancels every running job, stops the threads and releases what jobs kept for resuming. */
  void close() {
    jobs.values().forEach(r -> r.task.cancel());
    threads.shutdown();
    try {
      threads.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    jobs.values().forEach(r -> r.task.close());
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
    final Task task;
    volatile String state = "running";
    volatile String error;

    Running(String description, Task task) {
      this.description = description;
      this.task = task;
    }
  }
}
