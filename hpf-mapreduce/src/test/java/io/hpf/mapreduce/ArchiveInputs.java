package io.hpf.mapreduce;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/** Runs an input format by hand, as a job's tasks would: splits, then every split's records. */
final class ArchiveInputs {
  private ArchiveInputs() {}

  static Job job(Configuration conf, Path... inputs) throws IOException {
    Job job = Job.getInstance(new Configuration(conf));
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    return job;
  }

  /** Every record of every split, by name; a name read twice fails. */
  static TreeMap<String, byte[]> readAll(ArchiveInputFormat<?> format, Job job) throws Exception {
    return readAll(format, job, format.getSplits(job));
  }

  static TreeMap<String, byte[]> readAll(
      ArchiveInputFormat<?> format, Job job, List<InputSplit> splits) throws Exception {
    TreeMap<String, byte[]> read = new TreeMap<>();
    for (InputSplit split : splits) {
      var context = new TaskAttemptContextImpl(job.getConfiguration(), new TaskAttemptID());
      try (RecordReader<EntryKey, ?> reader = format.createRecordReader(split, context)) {
        reader.initialize(split, context);
        while (reader.nextKeyValue()) {
          String name = reader.getCurrentKey().name();
          Object value = reader.getCurrentValue();
          byte[] bytes;
          if (value instanceof BytesWritable b) {
            bytes = b.copyBytes();
          } else {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (InputStream in = ((EntryStream) value).stream()) {
              in.transferTo(out);
            }
            bytes = out.toByteArray();
          }
          if (read.put(name, bytes) != null) {
            throw new AssertionError("read twice: " + name);
          }
        }
        if (reader.getProgress() != 1f) {
          throw new AssertionError("progress at the end: " + reader.getProgress());
        }
      }
    }
    return read;
  }
}
