package io.hpf.bench.mapreduce;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.bench.BenchArgs;
import io.hpf.bench.BenchOutput;
import io.hpf.bench.paper.Dataset;
import io.hpf.bench.paper.Datasets;
import io.hpf.bench.paper.GeneratedFile;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.SiteFiles;
import io.hpf.hadoop.fs.ArchivePath;
import io.hpf.mapreduce.ArchiveInputFormat;
import io.hpf.mapreduce.HpfInputFormat;
import io.hpf.mapreduce.jobs.Grep;
import io.hpf.mapreduce.jobs.SfJobs;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.tools.HadoopArchives;
import org.apache.hadoop.util.ToolRunner;

/**
 * SFMapReduce's experiment at this machine's scale, on a real HDFS: map-only WordCount, Grep and
 * Sort over sf-text-30k files stored (a) as plain files read with {@code TextInputFormat} (a split
 * per file), (b) as plain files with {@code CombineTextInputFormat}, (c) in a HAR through {@code
 * har://}, (d) in an hpf archive with {@code HpfInputFormat}; then hpf's split-size sweep, split
 * computation for a 100k-entry archive, and {@code hpf://} against {@code har://} for a recursive
 * listing and 1,000 random reads. Jobs run with Hadoop's local job runner (two map slots).
 *
 * <p>Usage: {@code MapReduceBenchmark OUT.jsonl HDFS-URI FILES REPETITIONS [list]}: with {@code
 * list}, only {@code hpf://} against {@code har://} over FILES text files of about 1 KB (the
 * issue's 100k-entry listing, where 30 KB files would be 3 GB).
 */
public final class MapReduceBenchmark {
  private static final String GREP_PATTERN = "(?i)\\bthe[a-z]*s\\b";

  private MapReduceBenchmark() {}

  public static void main(String[] args) throws Exception {
    BenchArgs flags =
        BenchArgs.parse("MapReduceBenchmark", args, "out", "hdfs", "files", "repetitions", "mode");
    BenchOutput out = new BenchOutput(flags.path("out"), flags.commandLine());
    URI hdfs = URI.create(flags.string("hdfs"));
    int files = flags.integer("files");
    int repetitions = flags.integer("repetitions");
    Configuration conf = configuration(hdfs);
    FileSystem fs = FileSystem.get(hdfs, conf);
    org.apache.hadoop.fs.Path base =
        fs.makeQualified(new org.apache.hadoop.fs.Path("/mrbench-" + files));
    org.apache.hadoop.fs.Path plain = new org.apache.hadoop.fs.Path(base, "plain");
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(base, "text.hpf");
    org.apache.hadoop.fs.Path har = new org.apache.hadoop.fs.Path(base, "text.har");
    boolean listOnly = flags.string("mode", "all").equals("list");
    int fileBytes = listOnly ? 1_000 : 30_000;
    if (listOnly) {
      base = fs.makeQualified(new org.apache.hadoop.fs.Path("/listbench-" + files));
      plain = new org.apache.hadoop.fs.Path(base, "plain");
      archive = new org.apache.hadoop.fs.Path(base, "text.hpf");
      har = new org.apache.hadoop.fs.Path(base, "text.har");
    }
    if (!fs.exists(archive)) {
      stage(fs, conf, files, fileBytes, plain, archive, har);
    }
    Map<String, Object> common = new LinkedHashMap<>();
    common.put("fs", "hdfs");
    common.put("dataset", listOnly ? "sf-text-1k" : "sf-text-30k");
    common.put("files", files);
    URI harUri = harUri(har, plain);
    if (listOnly) {
      for (int r = 1; r <= repetitions; r++) {
        listAndRead(out, common, conf, archive, harUri, r);
      }
      return;
    }
    for (int r = 1; r <= repetitions; r++) {
      for (SfJobs.Kind kind : SfJobs.Kind.values()) {
        for (String input : new String[] {"plain", "combine", "har", "hpf"}) {
          org.apache.hadoop.fs.Path output =
              new org.apache.hadoop.fs.Path(base, "out/" + kind + "-" + input + "-" + r);
          fs.delete(output, true);
          Job job = job(kind, input, conf, fs, plain, harUri, archive, output);
          record(out, common, job, kind, input, r, 0);
          fs.delete(output, true);
          fs.delete(new org.apache.hadoop.fs.Path(output + ".hpf"), true);
        }
      }
      for (long mb : new long[] {8, 32, 64, 128, 256, 512}) {
        org.apache.hadoop.fs.Path output =
            new org.apache.hadoop.fs.Path(base, "out/sweep-" + mb + ".hpf");
        Job job = SfJobs.build(SfJobs.Kind.WORDCOUNT, conf, List.of(archive), output, null, false);
        ArchiveInputFormat.setSplitSize(job, mb << 20);
        record(out, common, job, SfJobs.Kind.WORDCOUNT, "hpf-split-" + mb + "mb", r, mb);
        fs.delete(output, true);
      }
      listAndRead(out, common, conf, archive, harUri, r);
    }
    splitSetup(out, conf, fs, base);
  }

  /** The cluster's settings (the fast close of small files among them), the local job runner. */
  private static Configuration configuration(URI hdfs) {
    // The cluster's settings (the fast close of small files among them).
    Configuration conf =
        SiteFiles.addFromEnvironment(new Configuration(), "core-site.xml", "hdfs-site.xml");
    conf.set("fs.defaultFS", hdfs.toString());
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    // The client asks whether the job is done every 5 s by default: that, not the job, would be
    // measured.
    conf.setInt("mapreduce.client.completion.pollinterval", 20);
    // The generated files lie in subdirectories (dir-00/...), as SFMapReduce's input tree.
    conf.setBoolean("mapreduce.input.fileinputformat.input.dir.recursive", true);
    return conf;
  }

  /** One job of {@code kind} over one way of storing the input. */
  private static Job job(
      SfJobs.Kind kind,
      String input,
      Configuration conf,
      FileSystem fs,
      org.apache.hadoop.fs.Path plain,
      URI harUri,
      org.apache.hadoop.fs.Path archive,
      org.apache.hadoop.fs.Path output)
      throws IOException {
    Job job;
    if (input.equals("plain")) {
      job = lineJob(kind, conf, plain, output, TextInputFormat.class);
    } else if (input.equals("combine")) {
      job = lineJob(kind, conf, plain, output, CombineTextInputFormat.class);
    } else if (input.equals("har")) {
      job =
          lineJob(kind, conf, new org.apache.hadoop.fs.Path(harUri), output, TextInputFormat.class);
    } else {
      org.apache.hadoop.fs.Path hpfOut = new org.apache.hadoop.fs.Path(output + ".hpf");
      job = SfJobs.build(kind, conf, List.of(archive), hpfOut, GREP_PATTERN, false);
    }
    if (input.equals("combine")) {
      // Combine splits up to the block size (on this input: one per map slot, as hpf's).
      job.getConfiguration()
          .setLong("mapreduce.input.fileinputformat.split.maxsize", fs.getDefaultBlockSize(plain));
    }
    return job;
  }

  private static void record(
      BenchOutput out,
      Map<String, Object> common,
      Job job,
      SfJobs.Kind kind,
      String input,
      int repetition,
      long splitMb)
      throws Exception {
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IOException(kind + " over " + input + " failed");
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Object> m = new LinkedHashMap<>(common);
    m.put("benchmark", "mapreduce-" + kind.name().toLowerCase(java.util.Locale.ROOT));
    m.put("system", input);
    m.put("repetition", repetition);
    m.put("seconds", seconds);
    // The job's splits (the local job runner does not count launched maps).
    m.put("maps", job.getConfiguration().getInt(MRJobConfig.NUM_MAPS, -1));
    m.put("records", job.getCounters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
    if (splitMb > 0) {
      m.put("splitMb", splitMb);
    }
    out.write(m);
  }

  private static Job lineJob(
      SfJobs.Kind kind,
      Configuration conf,
      org.apache.hadoop.fs.Path input,
      org.apache.hadoop.fs.Path output,
      Class<? extends FileInputFormat<LongWritable, Text>> format)
      throws IOException {
    Job job = Job.getInstance(conf, kind + " over " + format.getSimpleName());
    job.setJarByClass(LineJobs.class);
    FileInputFormat.addInputPath(job, input);
    job.setInputFormatClass(format);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    switch (kind) {
      case WORDCOUNT -> {
        job.setMapperClass(LineJobs.WordCountMap.class);
        job.setOutputValueClass(LongWritable.class);
      }
      case GREP -> {
        job.getConfiguration().set(Grep.PATTERN, GREP_PATTERN);
        job.setMapperClass(LineJobs.GrepMap.class);
        job.setOutputValueClass(NullWritable.class);
      }
      case SORT -> {
        job.setMapperClass(LineJobs.SortMap.class);
        job.setOutputValueClass(NullWritable.class);
      }
    }
    return job;
  }

  /** Uploads the files, packs them into hpf and archives them with the HAR tool (not timed). */
  private static void stage(
      FileSystem fs,
      Configuration conf,
      int files,
      int fileBytes,
      org.apache.hadoop.fs.Path plain,
      org.apache.hadoop.fs.Path archive,
      org.apache.hadoop.fs.Path har)
      throws Exception {
    Dataset text = Datasets.text("sf-text-30k", files, fileBytes, Datasets.words());
    HadoopStorage storage =
        HadoopStorage.createDirectories(fs, archive, HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      for (Iterator<GeneratedFile> it = text.files(); it.hasNext(); ) {
        GeneratedFile f = it.next();
        try (OutputStream o = fs.create(new org.apache.hadoop.fs.Path(plain, f.name()))) {
          o.write(f.content());
        }
        writer.add(f.name(), f.content(), EntryMetadata.of(0));
      }
      writer.commit();
    }
    int code =
        ToolRunner.run(
            new HadoopArchives(conf),
            new String[] {
              "-archiveName",
              har.getName(),
              "-p",
              plain.getParent().toString(),
              plain.getName(),
              har.getParent().toString()
            });
    if (code != 0) {
      throw new IOException("the HAR tool failed (exit " + code + ")");
    }
  }

  private static URI harUri(org.apache.hadoop.fs.Path har, org.apache.hadoop.fs.Path plain) {
    URI u = har.toUri();
    return URI.create(
        "har://" + u.getScheme() + "-" + u.getAuthority() + u.getPath() + "/" + plain.getName());
  }

  /** A recursive listing of every entry, then 1,000 random entries opened and read. */
  private static void listAndRead(
      BenchOutput out,
      Map<String, Object> common,
      Configuration conf,
      org.apache.hadoop.fs.Path archive,
      URI harUri,
      int repetition)
      throws Exception {
    Map<String, URI> roots = new LinkedHashMap<>();
    roots.put("har", harUri);
    roots.put("hpf", ArchivePath.hpfUri(archive.toUri(), ""));
    for (var root : roots.entrySet()) {
      // A new instance each time: the listing and reads start cold for hpf (HAR keeps its index
      // in a process-wide cache whatever the instance). Not closed: closing a har:// file system
      // closes the shared HDFS instance under it, which the jobs use.
      FileSystem view = FileSystem.newInstance(root.getValue(), conf);
      {
        long start = System.nanoTime();
        List<org.apache.hadoop.fs.Path> all = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it =
            view.listFiles(new org.apache.hadoop.fs.Path(root.getValue()), true);
        while (it.hasNext()) {
          all.add(it.next().getPath());
        }
        measurement(out, common, "list-recursive", root.getKey(), repetition, start, all.size());
        SplittableRandom random = new SplittableRandom(repetition);
        byte[] buffer = new byte[1 << 16];
        start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
          try (FSDataInputStream in = view.open(all.get(random.nextInt(all.size())))) {
            while (in.read(buffer) >= 0) {
              // read to the end
            }
          }
        }
        measurement(out, common, "open-read-1000", root.getKey(), repetition, start, 1000);
      }
    }
  }

  private static void measurement(
      BenchOutput out,
      Map<String, Object> common,
      String benchmark,
      String system,
      int repetition,
      long startNanos,
      long count)
      throws IOException {
    Map<String, Object> m = new LinkedHashMap<>(common);
    m.put("benchmark", benchmark);
    m.put("system", system);
    m.put("repetition", repetition);
    m.put("seconds", (System.nanoTime() - startNanos) / 1e9);
    m.put("count", count);
    out.write(m);
  }

  /** Split computation for an archive of 100k small entries (content is beside the point). */
  private static void splitSetup(
      BenchOutput out, Configuration conf, FileSystem fs, org.apache.hadoop.fs.Path base)
      throws Exception {
    org.apache.hadoop.fs.Path archive = new org.apache.hadoop.fs.Path(base, "entries-100k.hpf");
    if (!fs.exists(archive)) {
      HadoopStorage storage =
          HadoopStorage.createDirectories(fs, archive, HadoopStorageOptions.DEFAULTS, false);
      try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
        byte[] content = new byte[512];
        for (int i = 0; i < 100_000; i++) {
          content[i % 512] = (byte) i;
          writer.add(
              String.format(java.util.Locale.ROOT, "d%03d/f%06d.txt", i % 1000, i),
              content,
              EntryMetadata.of(0));
        }
        writer.commit();
      }
    }
    try (HadoopStorage s = HadoopStorage.open(fs, archive, HadoopStorageOptions.DEFAULTS, false);
        ArchiveReader r = ArchiveReader.open(s)) {
      if (r.entryCount() != 100_000) {
        throw new IOException(archive + ": " + r.entryCount() + " entries");
      }
    }
    for (int r = 1; r <= 3; r++) {
      Job job = Job.getInstance(conf);
      FileInputFormat.addInputPath(job, archive);
      long start = System.nanoTime();
      int splits = new HpfInputFormat().getSplits(job).size();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("fs", "hdfs");
      m.put("dataset", "512-byte entries");
      m.put("files", 100_000);
      m.put("benchmark", "split-setup");
      m.put("system", "hpf");
      m.put("repetition", r);
      m.put("seconds", (System.nanoTime() - start) / 1e9);
      m.put("splits", splits);
      out.write(m);
    }
  }
}
