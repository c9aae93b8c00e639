package io.hpf.mapreduce;

import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.stage.StagedImport;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Makes a job's output entries of an archive, visible all at once. Each task attempt writes an
 * archive of its own (part files and one segment) in {@code <archive>/_hpf_jobs/<job>/<attempt>};
 * {@code commitTask} renames it to the task's name (one attempt per task wins); {@code commitJob}
 * takes the archive's lock and commits every committed task's entries in one manifest (their part
 * files moved in, their rows one new segment). Failed and speculative attempts, and a failed job,
 * leave only staging files, which are deleted: readers never see them, and the archive stays at its
 * generation. Names are checked at {@code commitJob}: one name from two tasks, or a name the
 * archive has (unless replacing), fails the job naming them.
 */
public final class ArchiveOutputCommitter extends OutputCommitter {
  private final URI archive;

  ArchiveOutputCommitter(URI archive) {
    this.archive = archive;
  }

  StagedImport staging(JobContext context) {
    return new StagedImport(archive, context.getJobID().toString(), context.getConfiguration());
  }

  /** Where an attempt writes its archive. */
  URI attemptDir(TaskAttemptContext context) {
    return staging(context).taskDir(context.getTaskAttemptID().toString());
  }

  private Path taskDir(TaskAttemptContext context) {
    return new Path(staging(context).taskDir(context.getTaskAttemptID().getTaskID().toString()));
  }

  /** Fails now, naming the holder, if another writer has the archive locked. */
  @Override
  public void setupJob(JobContext context) throws IOException {
    staging(context).setup(writerOptions(context.getConfiguration()));
  }

  /**
   * The options of the archive's writer at setup and commit: a codec, level or solid packing the
   * job asks for becomes the archive's (recorded in the manifest, as {@code hpf add --codec} does).
   * A request that cannot be met fails the job here, before any task runs.
   */
  static WriterOptions writerOptions(Configuration conf) {
    return AttemptArchive.packing(conf)
        .applyTo(
            WriterOptions.builder().replace(conf.getBoolean(ArchiveOutputFormat.REPLACE, false)))
        .build();
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
    // The record writer makes the attempt's directory when it writes.
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    Path attempt = new Path(attemptDir(context));
    return attempt.getFileSystem(context.getConfiguration()).exists(attempt);
  }

  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    Path attempt = new Path(attemptDir(context));
    Path task = taskDir(context);
    FileSystem fs = attempt.getFileSystem(context.getConfiguration());
    if (fs.exists(task)) {
      fs.delete(task, true); // an attempt of an earlier application attempt committed it
    }
    if (!fs.rename(attempt, task)) {
      throw new IOException("cannot commit task output: rename " + attempt + " to " + task);
    }
  }

  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    Path attempt = new Path(attemptDir(context));
    attempt.getFileSystem(context.getConfiguration()).delete(attempt, true);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    StagedImport staging = staging(context);
    try {
      // Committed tasks only: an attempt directory left by a failed attempt is not a task's.
      staging.commit(
          staging.taskDirs(name -> name.startsWith("task_")),
          writerOptions(context.getConfiguration()),
          false);
    } catch (IOException | RuntimeException e) {
      // Hadoop's local job runner reports a failed job commit as "NA": keep the reason.
      COMMIT_FAILURES.put(context.getJobID().toString(), String.valueOf(e.getMessage()));
      throw e;
    }
  }

  /** Why the commit of a job run in this process failed, in hpf's words; null if it did not. */
  public static String commitFailure(org.apache.hadoop.mapreduce.JobID job) {
    return COMMIT_FAILURES.get(job.toString());
  }

  private static final java.util.Map<String, String> COMMIT_FAILURES =
      new java.util.concurrent.ConcurrentHashMap<>();

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    staging(context).cleanup();
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }
}
