package io.hpf.mapreduce;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.manifest.ManifestStore;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
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
  /** Where jobs stage their output inside the archive directory (archives ignore directories). */
  static final String STAGING = "_hpf_jobs";

  private final URI archive;

  ArchiveOutputCommitter(URI archive) {
    this.archive = archive;
  }

  private Path jobDir(JobContext context) {
    return new Path(new Path(new Path(archive), STAGING), context.getJobID().toString());
  }

  /** Where an attempt writes its archive. */
  URI attemptDir(TaskAttemptContext context) {
    return new Path(jobDir(context), context.getTaskAttemptID().toString()).toUri();
  }

  private Path taskDir(TaskAttemptContext context) {
    return new Path(jobDir(context), context.getTaskAttemptID().getTaskID().toString());
  }

  /** Fails now, naming the holder, if another writer has the archive locked. */
  @Override
  public void setupJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    try (Storage storage = HadoopArchives.create(archive, conf)) {
      if (hasManifest(storage)) {
        ArchiveWriter.open(storage, writerOptions(conf)).close();
      }
    }
    FileSystem fs = jobDir(context).getFileSystem(conf);
    fs.mkdirs(jobDir(context));
  }

  private static boolean hasManifest(Storage storage) throws IOException {
    return ManifestStore.newestGeneration(storage.list()) >= 0;
  }

  static WriterOptions writerOptions(Configuration conf) {
    return WriterOptions.builder()
        .replace(conf.getBoolean(ArchiveOutputFormat.REPLACE, false))
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
    Configuration conf = context.getConfiguration();
    Path jobDir = jobDir(context);
    FileSystem fs = jobDir.getFileSystem(conf);
    List<String> subdirectories = new ArrayList<>();
    List<Storage> storages = new ArrayList<>();
    List<ArchiveReader> readers = new ArrayList<>();
    try (Storage storage = HadoopArchives.create(archive, conf)) {
      for (FileStatus s : fs.listStatus(jobDir)) {
        // Committed tasks only: an attempt directory left by a failed attempt is not a task's.
        if (s.isDirectory() && s.getPath().getName().startsWith("task_")) {
          subdirectories.add(STAGING + "/" + jobDir.getName() + "/" + s.getPath().getName());
          Storage task = HadoopArchives.open(s.getPath().toUri(), conf);
          storages.add(task);
          readers.add(ArchiveReader.open(task));
        }
      }
      long entries = readers.stream().mapToLong(ArchiveReader::entryCount).sum();
      String operation =
          "job "
              + context.getJobID()
              + ": "
              + entries
              + " entries from "
              + readers.size()
              + " tasks";
      WriterOptions options = writerOptions(conf);
      try (ArchiveWriter writer =
          hasManifest(storage)
              ? ArchiveWriter.open(storage, options)
              : ArchiveWriter.create(storage, options)) {
        writer.commitImported(subdirectories, readers, operation);
      }
    } finally {
      for (ArchiveReader r : readers) {
        r.close();
      }
      for (Storage s : storages) {
        s.close();
      }
      cleanup(fs, jobDir);
    }
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    Path jobDir = jobDir(context);
    cleanup(jobDir.getFileSystem(context.getConfiguration()), jobDir);
  }

  /** Deletes the job's staging directory, and the staging root when no other job uses it. */
  private static void cleanup(FileSystem fs, Path jobDir) throws IOException {
    fs.delete(jobDir, true);
    Path root = jobDir.getParent();
    FileStatus[] left = fs.exists(root) ? fs.listStatus(root) : null;
    if (left != null && left.length == 0) {
      fs.delete(root, false);
    }
  }

  @Override
  public boolean isRecoverySupported() {
    return false;
  }
}
