package io.hpf.mapreduce;

import io.hpf.archive.PartCursor;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Entries of archives as (name, stream) records, for entries too large for memory: the value is an
 * {@link EntryStream} over the content, streamed in bounded memory. Splits as {@link
 * ArchiveInputFormat} says.
 */
public class HpfStreamInputFormat extends ArchiveInputFormat<EntryStream> {
  @Override
  public RecordReader<EntryKey, EntryStream> createRecordReader(
      InputSplit split, TaskAttemptContext context) {
    return new EntryRecordReader<>() {
      private final EntryStream value = new EntryStream();
      private InputStream open;

      @Override
      void setValue(EntryInfo entry, PartCursor cursor) throws IOException {
        closeOpen();
        open = cursor.openContent();
        value.set(open);
      }

      @Override
      public EntryStream getCurrentValue() {
        return value;
      }

      private void closeOpen() throws IOException {
        if (open != null) {
          open.close();
          open = null;
        }
      }

      @Override
      public void close() throws IOException {
        try {
          closeOpen();
        } finally {
          super.close();
        }
      }
    };
  }
}
