package io.hpf.mapreduce.jobs;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * The word counts of one task, kept in memory and written once at its end in byte order of the
 * words. A word is a maximal run of ASCII letters and digits and of non-ASCII bytes (so that a
 * UTF-8 word of another script stays whole); words compare as bytes. Used by {@link WordCount} and
 * by the benchmarks' line-based WordCount, so both count alike.
 */
public final class WordCounts {
  private final Map<Word, long[]> counts = new HashMap<>();

  static boolean isWordByte(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b < 0;
  }

  /** Counts the words of {@code bytes[0, length)}. */
  public void add(byte[] bytes, int length) {
    int i = 0;
    while (i < length) {
      while (i < length && !isWordByte(bytes[i])) {
        i++;
      }
      int start = i;
      while (i < length && isWordByte(bytes[i])) {
        i++;
      }
      if (i > start) {
        counts
            .computeIfAbsent(new Word(Arrays.copyOfRange(bytes, start, i)), w -> new long[1])[0]++;
      }
    }
  }

  /** Writes {@code word, count} for every word, in byte order. */
  public void emit(TaskInputOutputContext<?, ?, Text, LongWritable> context)
      throws IOException, InterruptedException {
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
