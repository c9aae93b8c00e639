package io.hpf.mapreduce.jobs;

import io.hpf.mapreduce.ArchiveInputFormat;
import io.hpf.mapreduce.ArchiveOutputFormat;
import io.hpf.mapreduce.HpfInputFormat;
import io.hpf.mapreduce.HpfTextOutputFormat;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;

/** Builds the three jobs over archives, as {@code hpf mapreduce} runs them. */
public final class SfJobs {
  private SfJobs() {}

  /** The jobs there are. */
  public enum Kind {
    WORDCOUNT,
    GREP,
    SORT
  }

  /**
   * A job reading {@code inputs} (archives) and writing one entry per task into {@code output}.
   *
   * @param pattern the grep pattern (grep only)
   * @param reduce add a reduce phase (one reducer: one global result)
   */
  public static Job build(
      Kind kind, Configuration conf, List<Path> inputs, Path output, String pattern, boolean reduce)
      throws IOException {
    Job job = Job.getInstance(conf, "hpf " + kind.name().toLowerCase(java.util.Locale.ROOT));
    job.setJarByClass(SfJobs.class);
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    job.setInputFormatClass(HpfInputFormat.class);
    job.setOutputFormatClass(HpfTextOutputFormat.class);
    ArchiveOutputFormat.setOutputArchive(job, output);
    job.setOutputKeyClass(Text.class);
    job.setNumReduceTasks(reduce ? 1 : 0);
    switch (kind) {
      case WORDCOUNT -> {
        job.setMapperClass(WordCount.Map.class);
        job.setReducerClass(WordCount.Sum.class);
        job.setOutputValueClass(LongWritable.class);
      }
      case GREP -> {
        if (pattern == null) {
          throw new IllegalArgumentException("grep needs a pattern");
        }
        java.util.regex.Pattern.compile(pattern); // a bad one is an error now, not in every task
        job.getConfiguration().set(Grep.PATTERN, pattern);
        job.setMapperClass(Grep.Map.class);
        job.setReducerClass(Grep.Collect.class);
        job.setOutputValueClass(NullWritable.class);
      }
      case SORT -> {
        job.setMapperClass(reduce ? Sort.Emit.class : Sort.Map.class);
        job.setOutputValueClass(NullWritable.class);
      }
    }
    return job;
  }

  /** The input format's settings, for callers that set them from flags. */
  static void select(Job job, String expression, long splitBytes) {
    if (expression != null) {
      ArchiveInputFormat.setSelect(job, expression);
    }
    if (splitBytes > 0) {
      ArchiveInputFormat.setSplitSize(job, splitBytes);
    }
  }
}
