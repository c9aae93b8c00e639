package io.hpf.spark.write;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.spark.HadoopConf;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.sql.Row;

/**
 * What a Spark task does in a write: its rows become an archive of its own in the job's staging
 * directory, named for the task attempt, committed when the rows end; the task's result is that
 * directory's name (nothing for no rows). The driver imports only the attempts whose results it
 * received, so a failed or a losing speculative attempt's directory is never committed.
 */
final class TaskWriter implements Function2<Integer, Iterator<Row>, Iterator<String>> {
  private static final long serialVersionUID = 1L;

  private final HadoopConf conf;
  private final String jobDir;
  private final InputColumns columns;
  private final WriteOptions options;

  TaskWriter(HadoopConf conf, URI jobDir, InputColumns columns, WriteOptions options) {
    this.conf = conf;
    this.jobDir = jobDir.toString();
    this.columns = columns;
    this.options = options;
  }

  @Override
  public Iterator<String> call(Integer partition, Iterator<Row> rows) throws IOException {
    if (!rows.hasNext()) {
      return Collections.emptyIterator();
    }
    TaskContext task = TaskContext.get();
    String name = "task-" + partition + "-attempt-" + (task == null ? 0 : task.taskAttemptId());
    URI dir = URI.create(jobDir + "/" + name);
    org.apache.hadoop.fs.Path job = new org.apache.hadoop.fs.Path(URI.create(jobDir));
    if (!job.getFileSystem(conf.get()).exists(job)) {
      // The write failed and its staging was deleted while this task waited to start: making the
      // task's directory would make the staging directory again, which nobody deletes.
      throw new IOException(jobDir + ": the write was aborted (its staging directory is gone)");
    }
    long now = System.currentTimeMillis();
    try (Storage storage = HadoopArchives.create(dir, conf.get());
        ArchiveWriter writer = ArchiveWriter.create(storage, options.taskOptions())) {
      for (long n = 1; rows.hasNext(); n++) {
        Row row = rows.next();
        writer.add(entryName(row, partition, n), content(row), metadata(row, now));
      }
      writer.commit();
    } catch (IOException | RuntimeException e) {
      org.apache.hadoop.fs.Path failed = new org.apache.hadoop.fs.Path(dir);
      failed.getFileSystem(conf.get()).delete(failed, true); // nobody will import it
      throw e;
    }
    return List.of(name).iterator();
  }

  private String entryName(Row row, int partition, long n) {
    if (row.isNullAt(columns.name())) {
      throw new IllegalArgumentException(
          "row " + n + " of partition " + partition + ": 'name' is null");
    }
    return row.getString(columns.name());
  }

  private byte[] content(Row row) {
    if (row.isNullAt(columns.content())) {
      throw new IllegalArgumentException(
          "'" + row.getString(columns.name()) + "': content is null");
    }
    return columns.contentIsText()
        ? row.getString(columns.content()).getBytes(StandardCharsets.UTF_8)
        : (byte[]) row.get(columns.content());
  }

  private EntryMetadata metadata(Row row, long now) {
    long mtime = now;
    if (columns.mtime() >= 0 && !row.isNullAt(columns.mtime())) {
      Object t = row.get(columns.mtime());
      mtime = t instanceof Timestamp ts ? ts.getTime() : ((Instant) t).toEpochMilli();
    }
    Map<String, String> attributes = Map.of();
    if (columns.attributes() >= 0 && !row.isNullAt(columns.attributes())) {
      attributes = row.getJavaMap(columns.attributes());
    }
    return new EntryMetadata(mtime, EntryMetadata.DEFAULT_MODE, attributes);
  }
}
