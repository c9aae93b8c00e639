package io.hpf.mapreduce.jobs;

import io.hpf.mapreduce.EntryKey;
import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * WordCount: the counts of the words of a task's split, {@code word<TAB>count} in byte order of the
 * words ({@link WordCounts} says what a word is).
 */
public final class WordCount {
  private WordCount() {}

  /** Counts over the split and writes each word once, at the end. */
  public static final class Map extends Mapper<EntryKey, BytesWritable, Text, LongWritable> {
    private final WordCounts counts = new WordCounts();

    @Override
    protected void map(EntryKey key, BytesWritable value, Context context) {
      counts.add(value.getBytes(), value.getLength());
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      counts.emit(context);
    }
  }

  /** Sums the counts of each word (the --reduce phase). */
  public static final class Sum extends Reducer<Text, LongWritable, Text, LongWritable> {
    private final LongWritable total = new LongWritable();

    @Override
    protected void reduce(Text word, Iterable<LongWritable> counts, Context context)
        throws IOException, InterruptedException {
      long sum = 0;
      for (LongWritable c : counts) {
        sum += c.get();
      }
      total.set(sum);
      context.write(word, total);
    }
  }
}
