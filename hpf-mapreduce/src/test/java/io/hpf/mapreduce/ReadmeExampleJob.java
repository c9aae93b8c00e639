package io.hpf.mapreduce;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;

/** The README's example of a user's own job: the size of every selected entry, into an archive. */
public final class ReadmeExampleJob {
  // README example begins
  /** One output line per input entry: its name and its length. */
  public static class Sizes extends Mapper<EntryKey, BytesWritable, Text, LongWritable> {
    @Override
    protected void map(EntryKey entry, BytesWritable content, Context context)
        throws java.io.IOException, InterruptedException {
      context.write(new Text(entry.name()), new LongWritable(content.getLength()));
    }
  }

  public static boolean run(Configuration conf, Path input, Path output) throws Exception {
    Job job = Job.getInstance(conf, "entry sizes");
    job.setJarByClass(Sizes.class);
    FileInputFormat.addInputPath(job, input); // an archive, a glob of them, or an hpf:// path
    job.setInputFormatClass(HpfInputFormat.class); // splits of whole entries, by part block
    HpfInputFormat.setSelect(job, "name:logs/** size:..1m"); // on metadata, before any read
    job.setMapperClass(Sizes.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(HpfTextOutputFormat.class); // one entry per task: part-m-00000...
    HpfTextOutputFormat.setOutputArchive(job, output); // visible in one commit, or not at all
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    return job.waitForCompletion(true);
  }

  // README example ends

  private ReadmeExampleJob() {}
}
