package io.hpf.mapreduce;

import io.hpf.archive.ArchiveSettings;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.EntryMetadata;
import io.hpf.archive.PackingRequest;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.stage.StagedImport;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The archive a task attempt writes its entries into (made on the first entry), committed when the
 * attempt's writer closes; {@link ArchiveOutputCommitter} then takes it over.
 */
final class AttemptArchive {
  /**
   * The codec of output entries: none, lz4 or zstd; default: the archive's (for a new one zstd on
   * HDFS and other remote file systems, lz4 on local disk; zstd if a level or solid packing is
   * asked).
   */
  static final String CODEC = "hpf.output.codec";

  /** The zstd level of output entries, 1 to 19; default: the archive's (3 for a new one). */
  static final String ZSTD_LEVEL = "hpf.output.zstd.level";

  /** true: pack for size, as {@code hpf create --solid}; default false. */
  static final String SOLID = "hpf.output.solid";

  /** What the job asks of packing ({@link #CODEC}, {@link #ZSTD_LEVEL}, {@link #SOLID}). */
  static PackingRequest packing(Configuration conf) {
    return PackingRequest.parse(
        conf.get(CODEC), conf.get(ZSTD_LEVEL), conf.get(SOLID), ZSTD_LEVEL, SOLID);
  }

  private final TaskAttemptContext context;
  private Storage storage;
  private ArchiveWriter writer;

  AttemptArchive(TaskAttemptContext context) {
    this.context = context;
  }

  private ArchiveWriter writer() throws IOException {
    if (writer == null) {
      Configuration conf = context.getConfiguration();
      storage =
          HadoopArchives.create(ArchiveOutputFormat.committer(context).attemptDir(context), conf);
      // The archive's settings unless the job asks otherwise (StagedImport.taskOptions).
      ArchiveSettings archive =
          ArchiveOutputFormat.committer(context).staging(context).archiveSettings();
      writer = ArchiveWriter.create(storage, StagedImport.taskOptions(packing(conf), archive));
    }
    return writer;
  }

  void add(String name, byte[] content, int length) throws IOException {
    writer().add(name, content, length, EntryMetadata.of(System.currentTimeMillis()));
  }

  void addFile(String name, Path file) throws IOException {
    writer().addFile(name, file, EntryMetadata.of(System.currentTimeMillis()));
  }

  /** Commits what was written: the attempt's output is then ready for its task commit. */
  void close() throws IOException {
    try (Storage s = storage;
        ArchiveWriter w = writer) {
      if (w != null) {
        w.commit();
      }
    }
  }
}
