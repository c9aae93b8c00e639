package io.hpf.mapreduce;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.hadoop.EngineKeys;
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
  static final String CODEC = EngineKeys.OUTPUT_CODEC;
  static final String LEVEL = EngineKeys.OUTPUT_LEVEL;
  static final String SOLID = EngineKeys.OUTPUT_SOLID;

  /**
   * What the job asks of packing ({@link EngineKeys#OUTPUT_CODEC}, {@link EngineKeys#OUTPUT_LEVEL}
   * or its old name, {@link EngineKeys#OUTPUT_SOLID}).
   */
  static PackingRequest packing(Configuration conf) {
    String level = conf.get(LEVEL);
    String levelKey = LEVEL;
    if (level == null && conf.get(EngineKeys.OUTPUT_LEVEL_OLD_NAME) != null) {
      level = conf.get(EngineKeys.OUTPUT_LEVEL_OLD_NAME);
      levelKey = EngineKeys.OUTPUT_LEVEL_OLD_NAME;
    }
    return PackingRequest.parse(conf.get(CODEC), level, conf.get(SOLID), levelKey, SOLID);
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
