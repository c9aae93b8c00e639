package io.hpf.spark.write;

import io.hpf.hadoop.stage.StagedImport;
import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;

/**
 * A DataFrame written into an archive, visible all at once. The driver checks the columns, the mode
 * and the archive's lock before any task runs; each task writes an archive of its own ({@link
 * TaskWriter}); the driver commits the tasks' entries in one manifest commit ({@link
 * StagedImport}): appended (a name the archive has fails the write, unless the option replace), or,
 * in mode overwrite, as the archive's only entries. A name in two tasks fails the write naming it.
 * A failed write leaves the archive at its generation and its staging directory deleted.
 */
public final class ArchiveWrite {
  private ArchiveWrite() {}

  public static void run(SaveMode mode, Map<String, String> options, Dataset<Row> data) {
    String path = options.get("path");
    if (path == null) {
      throw new IllegalArgumentException(
          "no archive given: df.write.format(\"hpf\").save(\"<archive>\")");
    }
    InputColumns columns = InputColumns.of(data.schema());
    WriteOptions writeOptions = WriteOptions.of(options);
    HadoopConf conf = HadoopConf.forSession(options);
    try {
      Path archivePath = new Path(path);
      URI archive = archivePath.getFileSystem(conf.get()).makeQualified(archivePath).toUri();
      StagedImport staging = new StagedImport(archive, "spark-" + UUID.randomUUID(), conf.get());
      if (staging.archiveExists()) {
        if (mode == SaveMode.ErrorIfExists) {
          throw new IllegalArgumentException(
              path + ": the archive exists (mode errorifexists): use mode append or overwrite");
        }
        if (mode == SaveMode.Ignore) {
          return;
        }
      }
      staging.setup(writeOptions.commitOptions());
      // Tasks store entries as the archive's writers do, unless the write names a codec.
      WriteOptions taskOptions = writeOptions.withArchive(staging.archiveSettings());
      SparkContext sc = data.sparkSession().sparkContext();
      String group = staging.jobDir().getName();
      List<String> tasks;
      try (JobGroup ignored = JobGroup.enter(sc, group, "hpf write into " + path)) {
        tasks =
            data.javaRDD()
                .mapPartitionsWithIndex(
                    new TaskWriter(conf, staging.jobDir().toUri(), columns, taskOptions), false)
                .collect();
      } catch (Exception e) { // SparkException too: Scala throws it undeclared
        // The job failed: its other tasks may still be writing; stop them before deleting. A
        // task that started as the job failed may have made its directory after the first
        // deletion (later ones find the staging gone and stop): wait and delete once more.
        JobGroup.cancelAndWait(sc, group);
        staging.cleanup();
        JobGroup.cancelAndWait(sc, group);
        staging.cleanup();
        throw e;
      }
      staging.commit(tasks, writeOptions.commitOptions(), mode == SaveMode.Overwrite);
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
  }
}
