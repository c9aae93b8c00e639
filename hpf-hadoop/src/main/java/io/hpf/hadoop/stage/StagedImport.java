package io.hpf.hadoop.stage;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An engine's write into an archive, staged and committed at once (the MapReduce committer and the
 * Spark writer both are one): every task writes an archive of its own in {@code
 * <archive>/_hpf_jobs/<job>/<task>} (archives ignore subdirectories, and moving a part in is a
 * rename on the same file system); the job's commit takes the archive's lock and moves every task's
 * parts in under one new manifest ({@link ArchiveWriter#commitImported}). A failed job leaves only
 * staging files, which {@link #cleanup} deletes.
 */
public final class StagedImport {
  /** Where jobs stage their output inside the archive directory. */
  public static final String STAGING = "_hpf_jobs";

  private final URI archive;
  private final String job;
  private final Configuration conf;

  public StagedImport(URI archive, String job, Configuration conf) {
    this.archive = archive;
    this.job = job;
    this.conf = conf;
  }

  /** The job's staging directory. */
  public Path jobDir() {
    return new Path(new Path(new Path(archive), STAGING), job);
  }

  /** Where a task (or task attempt) named {@code name} writes its archive. */
  public URI taskDir(String name) {
    return new Path(jobDir(), name).toUri();
  }

  /** Whether the archive has a committed generation. */
  public boolean archiveExists() throws IOException {
    try (Storage storage = HadoopArchives.create(archive, conf)) {
      return hasManifest(storage);
    }
  }

  /**
   * The archive's writer settings ({@link ArchiveSettings#recordedIn} its newest manifest), or null
   * for a new archive.
   */
  public ArchiveSettings archiveSettings() throws IOException {
    try (Storage storage = HadoopArchives.open(archive, conf)) {
      return ArchiveFormat.settingsOf(storage);
    } catch (java.io.FileNotFoundException e) {
      return null; // not made yet: a new archive
    }
  }

  /**
   * The options of a task's own archive: the archive's settings (codec, groups, zstd level; for a
   * new archive the defaults of the storage the task writes to, the archive's) with what the job
   * asks on top; no dictionary (the commit moves the task's parts into an archive with dictionaries
   * of its own) and no grace period (nobody reads a task's archive while it is written).
   *
   * @param asked what the job asks of packing ({@link PackingRequest#ARCHIVES}: nothing)
   * @param archive the archive's settings ({@link #archiveSettings}), or null
   */
  public static WriterOptions taskOptions(PackingRequest asked, ArchiveSettings archive) {
    WriterOptions.Builder options = WriterOptions.builder().gracePeriodMillis(0);
    if (archive != null) {
      options
          .codec(archive.codec())
          .groups(archive.groupBytes(), archive.groupEntryMaxBytes())
          .zstdLevel(archive.zstdLevel());
    }
    return asked.applyTo(options).build();
  }

  private static boolean hasManifest(Storage storage) throws IOException {
    return ArchiveFormat.newestGeneration(storage.list()) >= 0;
  }

  /**
   * Fails now, naming the holder, if another writer has the archive locked; then makes the job's
   * staging directory.
   */
  public void setup(WriterOptions options) throws IOException {
    try (Storage storage = HadoopArchives.create(archive, conf)) {
      if (hasManifest(storage)) {
        ArchiveWriter.open(storage, options).close();
      }
    }
    jobDir().getFileSystem(conf).mkdirs(jobDir());
  }

  /**
   * Commits the named task archives in one generation, then deletes the staging directory (also
   * when the commit fails).
   *
   * @param tasks the task directories' names, each an archive a task committed
   * @param replaceAll the tasks' entries become the archive's only entries (an overwrite)
   */
  public Generation commit(List<String> tasks, WriterOptions options, boolean replaceAll)
      throws IOException {
    List<String> subdirectories = new ArrayList<>();
    List<Storage> storages = new ArrayList<>();
    List<ArchiveReader> readers = new ArrayList<>();
    try (Storage storage = HadoopArchives.create(archive, conf)) {
      for (String task : tasks) {
        subdirectories.add(STAGING + "/" + job + "/" + task);
        Storage taskStorage = HadoopArchives.open(taskDir(task), conf);
        storages.add(taskStorage);
        readers.add(ArchiveReader.open(taskStorage));
      }
      long entries = readers.stream().mapToLong(ArchiveReader::entryCount).sum();
      String operation =
          (replaceAll ? "overwrite by " : "")
              + "job "
              + job
              + ": "
              + entries
              + " entries from "
              + readers.size()
              + " tasks";
      try (ArchiveWriter writer =
          hasManifest(storage)
              ? ArchiveWriter.open(storage, options)
              : ArchiveWriter.create(storage, options)) {
        return writer.commitImported(subdirectories, readers, operation, replaceAll);
      }
    } finally {
      for (ArchiveReader r : readers) {
        r.close();
      }
      for (Storage s : storages) {
        s.close();
      }
      cleanup();
    }
  }

  /** The names of the task directories under the job's, those {@code keep} accepts. */
  public List<String> taskDirs(java.util.function.Predicate<String> keep) throws IOException {
    List<String> names = new ArrayList<>();
    for (FileStatus s : jobDir().getFileSystem(conf).listStatus(jobDir())) {
      if (s.isDirectory() && keep.test(s.getPath().getName())) {
        names.add(s.getPath().getName());
      }
    }
    return names;
  }

  /** Deletes the job's staging directory, and the staging root when no other job uses it. */
  public void cleanup() throws IOException {
    Path jobDir = jobDir();
    FileSystem fs = jobDir.getFileSystem(conf);
    fs.delete(jobDir, true);
    Path root = jobDir.getParent();
    FileStatus[] left = fs.exists(root) ? fs.listStatus(root) : null;
    if (left != null && left.length == 0) {
      fs.delete(root, false);
    }
  }
}
