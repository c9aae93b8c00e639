package io.hpf.mapreduce;

import io.hpf.hadoop.EngineKeys;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Output into an archive (new or existing) through an {@link ArchiveOutputCommitter}: what the
 * job's tasks write becomes visible in one commit when the job succeeds, and not at all otherwise.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public abstract class ArchiveOutputFormat<K, V> extends OutputFormat<K, V> {
  /** The output archive's location (any Hadoop file system). */
  public static final String ARCHIVE = EngineKeys.OUTPUT_ARCHIVE;

  /** Replace entries the archive already has instead of failing the job. */
  public static final String REPLACE = EngineKeys.OUTPUT_REPLACE;

  public static void setOutputArchive(Job job, Path archive) throws IOException {
    job.getConfiguration()
        .set(
            ARCHIVE,
            archive.getFileSystem(job.getConfiguration()).makeQualified(archive).toString());
  }

  public static void setReplace(Job job, boolean replace) {
    job.getConfiguration().setBoolean(REPLACE, replace);
  }

  static URI archive(Configuration conf) throws IOException {
    String archive = conf.get(ARCHIVE);
    if (archive == null) {
      throw new IOException("no output archive: set one with setOutputArchive");
    }
    return URI.create(archive);
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    archive(context.getConfiguration());
  }

  @Override
  public ArchiveOutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
    return new ArchiveOutputCommitter(archive(context.getConfiguration()));
  }

  /** The committer of a task's context: staging places follow from the job and attempt ids. */
  static ArchiveOutputCommitter committer(TaskAttemptContext context) throws IOException {
    return new ArchiveOutputCommitter(archive(context.getConfiguration()));
  }
}
