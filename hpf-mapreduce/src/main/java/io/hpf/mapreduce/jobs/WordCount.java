package io.hpf.mapreduce.jobs;

import io.hpf.mapreduce.EntryKey;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * WordCount: the counts of the words of a task's split, {@code word<TAB>count} in byte order of the
 * words. A word is a maximal run of ASCII letters and digits and of non-ASCII bytes (so that a
 * UTF-8 word of another script stays whole); words compare as bytes.
 */
public final class WordCount {
  private WordCount() {}

  static boolean isWordByte(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b < 0;
  }

  /** Counts in memory over the split and emits each word once, at the end, in byte order. */
  public static final class Map extends Mapper<EntryKey, BytesWritable, Text, LongWritable> {
    private final java.util.Map<Word, long[]> counts = new HashMap<>();

    @Override
    protected void map(EntryKey key, BytesWritable value, Context context) {
      byte[] b = value.getBytes();
      int n = value.getLength();
      int i = 0;
      while (i < n) {
        while (i < n && !isWordByte(b[i])) {
          i++;
        }
        int start = i;
        while (i < n && isWordByte(b[i])) {
          i++;
        }
        if (i > start) {
          counts.computeIfAbsent(new Word(Arrays.copyOfRange(b, start, i)), w -> new long[1])[0]++;
        }
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      Word[] words = counts.keySet().toArray(new Word[0]);
      Arrays.sort(words);
      Text word = new Text();
      LongWritable count = new LongWritable();
      for (Word w : words) {
        word.set(w.bytes);
        count.set(counts.get(w)[0]);
        context.write(word, count);
      }
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

  /** A word's bytes as a map key (byte order, content equality). */
  private record Word(byte[] bytes) implements Comparable<Word> {
    @Override
    public boolean equals(Object o) {
      return o instanceof Word w && Arrays.equals(bytes, w.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public int compareTo(Word o) {
      return Arrays.compareUnsigned(bytes, o.bytes);
    }

    @Override
    public String toString() {
      return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
  }
}
