package io.hpf.mapreduce.jobs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.TaskInputOutputContext;

/**
 * The lines of one task, kept and written at its end in byte order: map-only Sort's work, shared
 * with the benchmarks' line-based Sort so that both sort alike.
 */
public final class SortedLines {
  private final List<byte[]> lines = new ArrayList<>();

  /** Keeps {@code bytes[start, end)} as a line. */
  public void add(byte[] bytes, int start, int end) {
    lines.add(Arrays.copyOfRange(bytes, start, end));
  }

  /** Writes every line, in byte order, as a key with no value. */
  public void emit(TaskInputOutputContext<?, ?, Text, NullWritable> context)
      throws IOException, InterruptedException {
    lines.sort(Arrays::compareUnsigned);
    Text out = new Text();
    for (byte[] line : lines) {
      out.set(line);
      context.write(out, NullWritable.get());
    }
  }
}
