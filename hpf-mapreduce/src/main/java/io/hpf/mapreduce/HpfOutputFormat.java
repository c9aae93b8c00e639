package io.hpf.mapreduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Each record is an entry of the output archive: the key's text is its name, the value its content
 * ({@code BytesWritable} and {@code Text} as their bytes, anything else as its text in UTF-8). The
 * job's entries appear in one commit when it succeeds ({@link ArchiveOutputCommitter}).
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class HpfOutputFormat<K, V> extends ArchiveOutputFormat<K, V> {
  @Override
  public RecordWriter<K, V> getRecordWriter(TaskAttemptContext context) {
    AttemptArchive archive = new AttemptArchive(context);
    return new RecordWriter<>() {
      @Override
      public void write(K key, V value) throws IOException {
        if (value instanceof BytesWritable b) {
          archive.add(key.toString(), b.getBytes(), b.getLength());
        } else if (value instanceof Text t) {
          archive.add(key.toString(), t.getBytes(), t.getLength());
        } else {
          byte[] bytes = String.valueOf(value).getBytes(StandardCharsets.UTF_8);
          archive.add(key.toString(), bytes, bytes.length);
        }
      }

      @Override
      public void close(TaskAttemptContext c) throws IOException {
        archive.close();
      }
    };
  }
}
