package io.hpf.mapreduce.jobs;

import io.hpf.mapreduce.EntryKey;
import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Sort: the lines of a task's split in byte order. With --reduce every line is a map output key,
 * and the shuffle (which compares {@code Text} as bytes) sorts them globally.
 */
public final class Sort {
  private Sort() {}

  /** Map-only: keeps the split's lines and writes them sorted at the end. */
  public static final class Map extends Mapper<EntryKey, BytesWritable, Text, NullWritable> {
    private final SortedLines lines = new SortedLines();

    @Override
    protected void map(EntryKey key, BytesWritable value, Context context)
        throws IOException, InterruptedException {
      Lines.each(value.getBytes(), value.getLength(), lines::add);
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      lines.emit(context);
    }
  }

  /** With a reduce phase: each line is a key; the shuffle sorts. */
  public static final class Emit extends Mapper<EntryKey, BytesWritable, Text, NullWritable> {
    private final Text out = new Text();

    @Override
    protected void map(EntryKey key, BytesWritable value, Context context)
        throws IOException, InterruptedException {
      Lines.each(
          value.getBytes(),
          value.getLength(),
          (b, s, e) -> {
            out.set(b, s, e - s);
            context.write(out, NullWritable.get());
          });
    }
  }
}
