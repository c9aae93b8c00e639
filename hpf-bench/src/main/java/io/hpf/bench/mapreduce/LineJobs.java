package io.hpf.bench.mapreduce;

import io.hpf.mapreduce.jobs.Grep;
import io.hpf.mapreduce.jobs.SortedLines;
import io.hpf.mapreduce.jobs.WordCounts;
import java.io.IOException;
import java.util.regex.Pattern;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * The three jobs over plain files and HAR, reading lines ({@code TextInputFormat} and its combine
 * form) and answering as {@code hpf mapreduce} does over archives: the peers of the MapReduce
 * benchmark.
 */
final class LineJobs {
  private LineJobs() {}

  /** The counts of a task's words (the same words as hpf's WordCount). */
  public static final class WordCountMap extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final WordCounts counts = new WordCounts();

    @Override
    protected void map(LongWritable offset, Text line, Context context) {
      counts.add(line.getBytes(), line.getLength());
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      counts.emit(context);
    }
  }

  /** {@code file:line} for each line with a match, the file as the input format names it. */
  public static final class GrepMap extends Mapper<LongWritable, Text, Text, NullWritable> {
    private Pattern pattern;
    private final Text out = new Text();

    @Override
    protected void setup(Context context) {
      pattern = Pattern.compile(context.getConfiguration().get(Grep.PATTERN));
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String text = line.toString();
      if (pattern.matcher(text).find()) {
        String file = context.getConfiguration().get("mapreduce.map.input.file", "?");
        out.set(file.substring(file.lastIndexOf('/') + 1) + ":" + text);
        context.write(out, NullWritable.get());
      }
    }
  }

  /** The task's lines in byte order. */
  public static final class SortMap extends Mapper<LongWritable, Text, Text, NullWritable> {
    private final SortedLines lines = new SortedLines();

    @Override
    protected void map(LongWritable offset, Text line, Context context) {
      lines.add(line.getBytes(), 0, line.getLength());
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      lines.emit(context);
    }
  }
}
