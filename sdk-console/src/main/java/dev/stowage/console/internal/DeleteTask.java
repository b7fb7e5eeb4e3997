package dev.stowage.console.internal;

import dev.stowage.DeleteJob;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A delete-by-index job: its runs are {@link DeleteJob}s, a resumed one built from the resume token
 * of the last completed page (which carries the counts so far).
 */
final class DeleteTask implements Jobs.Task {
  private final DeleteJob.Options options;
  private final BiFunction<String, DeleteJob.Options, DeleteJob> resume;
  private volatile DeleteJob job;
  private volatile DeleteJob.Progress progress;

  /**
   * @param options the job's options (the progress listener is set here)
   * @param make builds the job from its options
   * @param resume builds the job again from a resume token, to continue a cancelled or failed run
   */
  DeleteTask(
      DeleteJob.Options options,
      Function<DeleteJob.Options, DeleteJob> make,
      BiFunction<String, DeleteJob.Options, DeleteJob> resume) {
    this.options = options;
    this.resume = resume;
    this.job = make.apply(options.withProgress(p -> progress = p));
  }

  @Override
  public boolean run() {
    DeleteJob.Progress last = job.run();
    progress = last;
    return last.done();
  }

  @Override
  public void cancel() {
    job.cancel();
  }

  @Override
  public void prepareResume() {
    DeleteJob.Progress last = progress;
    if (last == null || last.resumeToken() == null) {
      throw new IllegalArgumentException("the job has no completed page to resume after");
    }
    job = resume.apply(last.resumeToken(), options.withProgress(p -> progress = p));
  }

  @Override
  public void describe(Map<String, Object> m) {
    DeleteJob.Progress p = progress;
    m.put("kind", "delete");
    m.put("matched", p == null ? 0 : p.matched());
    m.put("deleted", p == null ? 0 : p.deleted());
    m.put("blobsDeleted", p == null ? 0 : p.blobsDeleted());
    m.put("elapsedMillis", p == null ? 0 : p.elapsed().toMillis());
    m.put("resumeToken", p == null ? null : p.resumeToken());
  }
}
