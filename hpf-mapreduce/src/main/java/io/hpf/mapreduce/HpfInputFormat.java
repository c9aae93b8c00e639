package io.hpf.mapreduce;

import io.hpf.archive.PartCursor;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.EngineKeys;
import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Entries of archives as (name, content) records: key an {@link EntryKey}, value the content,
 * checked against its CRC32C, as {@code BytesWritable}. Entries over {@link #MAX_VALUE_BYTES}
 * (default 64 MiB) fail the task with a clear error: read such archives with {@link
 * HpfStreamInputFormat}. Splits as {@link ArchiveInputFormat} says.
 */
public class HpfInputFormat extends ArchiveInputFormat<BytesWritable> {
  /** The largest entry read whole into a value. */
  public static final String MAX_VALUE_BYTES = EngineKeys.MAX_VALUE_BYTES;

  @Override
  public RecordReader<EntryKey, BytesWritable> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    long max = context.getConfiguration().getLong(MAX_VALUE_BYTES, 64L << 20);
    return new EntryRecordReader<>() {
      private final BytesWritable value = new BytesWritable();

      @Override
      void setValue(EntryInfo entry, PartCursor cursor) throws IOException {
        if (entry.rawLength() > max) {
          throw new IOException(
              "entry '"
                  + entry.name()
                  + "' is "
                  + entry.rawLength()
                  + " bytes, over "
                  + MAX_VALUE_BYTES
                  + " ("
                  + max
                  + "): read it with HpfStreamInputFormat");
        }
        byte[] content = cursor.content();
        value.set(content, 0, content.length);
      }

      @Override
      public BytesWritable getCurrentValue() {
        return value;
      }
    };
  }
}
