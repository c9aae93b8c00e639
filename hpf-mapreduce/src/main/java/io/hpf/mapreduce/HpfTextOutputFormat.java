package io.hpf.mapreduce;

import io.hpf.hadoop.EngineKeys;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * All records of a task as one entry of the output archive, {@code key<TAB>value} lines as Hadoop's
 * {@code TextOutputFormat} writes them (a {@code NullWritable} side is left out), named like its
 * files: {@code part-m-00000} for map task 0, {@code part-r-00003} for reduce task 3 (a prefix may
 * be set). The lines go to a local temporary file, streamed into the archive at close: memory stays
 * bounded whatever the task writes.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class HpfTextOutputFormat<K, V> extends ArchiveOutputFormat<K, V> {
  /** A prefix for the entry names ("" by default; "wordcount/" puts them in a directory). */
  public static final String NAME_PREFIX = EngineKeys.OUTPUT_NAME_PREFIX;

  private static final byte[] TAB = {'\t'};
  private static final byte[] NEWLINE = {'\n'};

  /** The entry name of a task's output. */
  static String entryName(TaskAttemptContext context) {
    var task = context.getTaskAttemptID().getTaskID();
    return context.getConfiguration().get(NAME_PREFIX, "")
        + String.format(
            Locale.ROOT,
            "part-%s-%05d",
            task.getTaskType().name().substring(0, 1).toLowerCase(Locale.ROOT),
            task.getId());
  }

  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context) throws IOException {
    AttemptArchive archive = new AttemptArchive(context);
    Path lines = Files.createTempFile("hpf-task-output", ".txt");
    OutputStream out = new BufferedOutputStream(Files.newOutputStream(lines), 1 << 16);
    return new RecordWriter<>() {
      @Override
      public void write(K key, V value) throws IOException {
        boolean hasKey = key != null && !(key instanceof NullWritable);
        boolean hasValue = value != null && !(value instanceof NullWritable);
        if (hasKey) {
          writeObject(key);
        }
        if (hasKey && hasValue) {
          out.write(TAB);
        }
        if (hasValue) {
          writeObject(value);
        }
        out.write(NEWLINE);
      }

      private void writeObject(Object o) throws IOException {
        if (o instanceof Text t) {
          out.write(t.getBytes(), 0, t.getLength());
        } else {
          out.write(o.toString().getBytes(StandardCharsets.UTF_8));
        }
      }

      @Override
      public void close(TaskAttemptContext c) throws IOException {
        try {
          out.close();
          archive.addFile(entryName(context), lines);
          archive.close();
        } finally {
          Files.deleteIfExists(lines);
        }
      }
    };
  }
}
