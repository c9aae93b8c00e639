package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The output committer's protocol, attempt by attempt (failed, retried and speculative attempts),
 * and whole jobs that fail: the archive gains exactly one generation with the committed attempts'
 * entries, or stays exactly as it was, and no staging files are left.
 */
class ArchiveOutputCommitterTest {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void start() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  private static Path existingArchive(Map<String, String> entries) throws Exception {
    return existingArchive(entries, WriterOptions.builder().build());
  }

  private static Path existingArchive(Map<String, String> entries, WriterOptions options)
      throws Exception {
    Path dir = hdfs.fs().makeQualified(hdfs.freshPath("out.hpf"));
    HadoopStorage s =
        HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveWriter w = ArchiveWriter.create(s, options)) {
      for (var e : entries.entrySet()) {
        w.add(e.getKey(), bytes(e.getValue()), EntryMetadata.of(0));
      }
      w.commit();
    }
    return dir;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Configuration conf(Path archive) throws IOException {
    Configuration conf = new Configuration(hdfs.fs().getConf());
    conf.set(ArchiveOutputFormat.ARCHIVE, archive.toString());
    return conf;
  }

  /** One attempt of a map task: writes entries through the output format's record writer. */
  private static TaskAttemptContext attempt(Configuration conf, JobID job, int task, int attempt)
      throws Exception {
    TaskAttemptID id =
        new TaskAttemptID(job.getJtIdentifier(), job.getId(), TaskType.MAP, task, attempt);
    return new TaskAttemptContextImpl(conf, id);
  }

  private static void write(TaskAttemptContext context, String... nameAndContent) throws Exception {
    RecordWriter<Text, BytesWritable> w =
        new HpfOutputFormat<Text, BytesWritable>().getRecordWriter(context);
    for (int i = 0; i < nameAndContent.length; i += 2) {
      w.write(new Text(nameAndContent[i]), new BytesWritable(bytes(nameAndContent[i + 1])));
    }
    w.close(context);
  }

  private static long manifestGeneration(Path archive) throws Exception {
    try (HadoopStorage s =
            HadoopStorage.open(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
        var r = io.hpf.archive.ArchiveReader.open(s)) {
      return r.manifest().generation();
    }
  }

  private static void assertNoStagingLeft(Path archive) throws IOException {
    for (FileStatus s : hdfs.fs().listStatus(archive)) {
      assertFalse(s.isDirectory(), "left behind: " + s.getPath());
    }
  }

  @Test
  void failedRetriedAndSpeculativeAttemptsLeaveOnlyTheCommittedOnes() throws Exception {
    Path archive = existingArchive(Map.of("old", "kept"));
    Configuration conf = conf(archive);
    JobID job = new JobID("committer", 1);
    ArchiveOutputCommitter committer =
        new HpfOutputFormat<>().getOutputCommitter(attempt(conf, job, 0, 0));
    committer.setupJob(new JobContextImpl(conf, job));
    // Task 0: attempt 0 fails after writing, attempt 1 succeeds.
    TaskAttemptContext failed = attempt(conf, job, 0, 0);
    write(failed, "a", "from the failed attempt", "z", "only the failed attempt");
    committer.abortTask(failed);
    TaskAttemptContext retried = attempt(conf, job, 0, 1);
    write(retried, "a", "retried");
    assertTrue(committer.needsTaskCommit(retried));
    committer.commitTask(retried);
    // Task 1: two speculative attempts write; one commits, the other is killed.
    TaskAttemptContext first = attempt(conf, job, 1, 0);
    TaskAttemptContext second = attempt(conf, job, 1, 1);
    write(first, "b", "speculative one");
    write(second, "b", "speculative two", "c", "two's other");
    committer.commitTask(second);
    committer.abortTask(first);
    // Task 2 writes nothing: nothing to commit.
    assertFalse(committer.needsTaskCommit(attempt(conf, job, 2, 0)));
    long before = manifestGeneration(archive);
    committer.commitJob(new JobContextImpl(conf, job));
    assertEquals(before + 1, manifestGeneration(archive), "one new generation");
    assertEquals(
        new TreeMap<>(
            Map.of("old", "kept", "a", "retried", "b", "speculative two", "c", "two's other")),
        ArchiveJobsTest.entries(archive));
    assertNoStagingLeft(archive);
  }

  @Test
  void tasksStoreEntriesAsTheArchivesWritersDoUnlessTheJobNamesACodec() throws Exception {
    Path archive =
        existingArchive(
            Map.of("old", "kept"),
            WriterOptions.builder().codec(io.hpf.archive.model.Codec.NONE).build());
    String text = "a line that compresses, a line that compresses\n".repeat(50);
    for (String asked : new String[] {null, "lz4"}) {
      Configuration conf = conf(archive);
      if (asked != null) {
        conf.set(AttemptArchive.CODEC, asked);
      }
      String name = asked == null ? "by-default" : "asked-lz4";
      runOneTaskJob(conf, new JobID("settings", asked == null ? 1 : 2), name, text);
      try (HadoopStorage s =
              HadoopStorage.open(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
          var r = io.hpf.archive.ArchiveReader.open(s)) {
        assertEquals(
            asked == null ? io.hpf.archive.model.Codec.NONE : io.hpf.archive.model.Codec.LZ4,
            r.stat(name).codec(),
            name);
        // A codec the job names becomes the archive's, as `hpf add --codec` makes it.
        assertEquals(
            asked == null ? io.hpf.archive.model.Codec.NONE : io.hpf.archive.model.Codec.LZ4,
            r.manifest().writerSettings().codec());
      }
    }
  }

  /** Tasks compress at the archive's zstd level (format version 6), as `hpf add` does. */
  @Test
  void tasksCompressAtTheArchivesZstdLevel() throws Exception {
    Path archive =
        existingArchive(
            Map.of("old", "kept"), WriterOptions.builder().zstdLevel(12).groups(0, 0).build());
    byte[] text = io.hpf.testing.ArchiveModel.words(7, 30_000);
    long atLevel12 = com.github.luben.zstd.Zstd.compress(text, 12).length;
    assertTrue(atLevel12 < com.github.luben.zstd.Zstd.compress(text, 3).length, "levels differ");
    Configuration conf = conf(archive);
    runOneTaskJob(
        conf,
        new JobID("level", 1),
        "words",
        new String(text, java.nio.charset.StandardCharsets.UTF_8));
    try (HadoopStorage s =
            HadoopStorage.open(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
        var r = io.hpf.archive.ArchiveReader.open(s)) {
      assertEquals(atLevel12, r.stat("words").storedLength());
      assertEquals(12, r.manifest().writerSettings().zstdLevel());
      assertArrayEquals(text, r.get("words"));
    }
    // A job that asks for a level (here through solid packing) makes it the archive's.
    conf.set(AttemptArchive.SOLID, "true");
    conf.set(AttemptArchive.LEVEL, "7");
    runOneTaskJob(
        conf, new JobID("level", 2), "small-1", "a small one", "small-2", "another small one");
    try (HadoopStorage s =
            HadoopStorage.open(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
        var r = io.hpf.archive.ArchiveReader.open(s)) {
      assertEquals(
          new io.hpf.archive.model.ArchiveSettings(
              io.hpf.archive.model.Codec.ZSTD, 262144, 65536, 7),
          r.manifest().writerSettings());
      assertTrue(r.stat("small-2").inGroup(), "solid groups in the task's archive");
    }
    // A level without zstd fails the job at setup, before any task, in one line.
    conf.set(AttemptArchive.CODEC, "lz4");
    JobID refused = new JobID("level", 3);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> committer(conf, refused).setupJob(new JobContextImpl(conf, refused)));
    assertEquals("solid packing and zstd levels need the zstd codec, not lz4", e.getMessage());
  }

  /** The level has one name everywhere now; a job setting its old name is still understood. */
  @Test
  void theLevelsOldNameIsStillRead() {
    Configuration conf = new Configuration(false);
    conf.set(io.hpf.hadoop.EngineKeys.OUTPUT_LEVEL_OLD_NAME, "5");
    assertEquals(5, AttemptArchive.packing(conf).zstdLevel());
    conf.set(AttemptArchive.LEVEL, "8");
    assertEquals(8, AttemptArchive.packing(conf).zstdLevel(), "the new name wins");
    conf.set(AttemptArchive.LEVEL, "0");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AttemptArchive.packing(conf));
    assertEquals("zstd level must be 1 to 19: 0", e.getMessage());
  }

  private static ArchiveOutputCommitter committer(Configuration conf, JobID job) throws Exception {
    return new HpfOutputFormat<>().getOutputCommitter(attempt(conf, job, 0, 0));
  }

  /** A job of one task that writes these entries, committed. */
  private static void runOneTaskJob(Configuration conf, JobID job, String... nameAndContent)
      throws Exception {
    ArchiveOutputCommitter committer = committer(conf, job);
    committer.setupJob(new JobContextImpl(conf, job));
    TaskAttemptContext task = attempt(conf, job, 0, 0);
    write(task, nameAndContent);
    committer.commitTask(task);
    committer.commitJob(new JobContextImpl(conf, job));
  }

  @Test
  void duplicateNamesAcrossTasksFailTheJobNamingThemAndChangeNothing() throws Exception {
    Path archive = existingArchive(Map.of("old", "kept"));
    Configuration conf = conf(archive);
    JobID job = new JobID("duplicates", 1);
    ArchiveOutputCommitter committer =
        new HpfOutputFormat<>().getOutputCommitter(attempt(conf, job, 0, 0));
    committer.setupJob(new JobContextImpl(conf, job));
    for (int task = 0; task < 2; task++) {
      TaskAttemptContext a = attempt(conf, job, task, 0);
      write(a, "same", "task " + task, "own-" + task, "x");
      committer.commitTask(a);
    }
    long before = manifestGeneration(archive);
    var e =
        assertThrows(
            io.hpf.archive.model.NameConflictException.class,
            () -> committer.commitJob(new JobContextImpl(conf, job)));
    assertTrue(e.getMessage().contains("'same'"), e.getMessage());
    assertEquals(before, manifestGeneration(archive));
    assertEquals(Map.of("old", "kept"), ArchiveJobsTest.entries(archive));
    assertNoStagingLeft(archive);
    // A name the archive has already is refused too, unless the job replaces.
    JobID again = new JobID("existing", 2);
    committer.setupJob(new JobContextImpl(conf, again));
    TaskAttemptContext a = attempt(conf, again, 0, 0);
    write(a, "old", "new content");
    committer.commitTask(a);
    assertThrows(
        io.hpf.archive.model.NameConflictException.class,
        () -> committer.commitJob(new JobContextImpl(conf, again)));
    assertEquals(Map.of("old", "kept"), ArchiveJobsTest.entries(archive));
    // A name that would make a file of the archive a directory, or the other way round.
    for (String clash : new String[] {"old/under", "dir", "dir/x/deeper"}) {
      JobID job3 = new JobID("clash", clash.length());
      committer.setupJob(new JobContextImpl(conf, job3));
      TaskAttemptContext t0 = attempt(conf, job3, 0, 0);
      write(t0, clash, "one");
      committer.commitTask(t0);
      TaskAttemptContext t1 = attempt(conf, job3, 1, 0);
      write(t1, "dir/x", "two");
      committer.commitTask(t1);
      var nameClash =
          assertThrows(
              io.hpf.archive.model.NameConflictException.class,
              () -> committer.commitJob(new JobContextImpl(conf, job3)));
      assertTrue(nameClash.getMessage().contains("'" + clash + "'"), nameClash.getMessage());
      assertEquals(Map.of("old", "kept"), ArchiveJobsTest.entries(archive));
      assertNoStagingLeft(archive);
    }
  }

  /** A mapper that fails the job. */
  public static final class Failing extends Mapper<EntryKey, BytesWritable, Text, BytesWritable> {
    @Override
    protected void map(EntryKey key, BytesWritable value, Context context)
        throws IOException, InterruptedException {
      context.write(new Text(key.name()), value);
      if (key.name().equals("old")) {
        throw new IOException("this task fails");
      }
    }
  }

  @Test
  void aJobThatFailsLeavesTheArchiveAtItsGeneration() throws Exception {
    Path input = existingArchive(Map.of("old", "x", "other", "y"));
    Path archive = existingArchive(Map.of("kept", "z"));
    Configuration conf = conf(archive);
    conf.set("mapreduce.framework.name", "local");
    conf.setInt("mapreduce.client.completion.pollinterval", 50); // not 5 s per job
    Job job = Job.getInstance(conf);
    org.apache.hadoop.mapreduce.lib.input.FileInputFormat.addInputPath(job, input);
    job.setInputFormatClass(HpfInputFormat.class);
    job.setOutputFormatClass(HpfOutputFormat.class);
    job.setMapperClass(Failing.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(BytesWritable.class);
    long before = manifestGeneration(archive);
    assertFalse(job.waitForCompletion(false));
    assertEquals(before, manifestGeneration(archive));
    assertEquals(Map.of("kept", "z"), ArchiveJobsTest.entries(archive));
    assertNoStagingLeft(archive);
  }

  @Test
  void aLockedArchiveFailsTheJobAtSetupNamingTheHolder() throws Exception {
    Path archive = existingArchive(Map.of("kept", "z"));
    Configuration conf = conf(archive);
    JobID job = new JobID("locked", 1);
    HadoopStorage s = HadoopStorage.open(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveWriter holder = ArchiveWriter.open(s, WriterOptions.builder().build())) {
      ArchiveOutputCommitter committer =
          new HpfOutputFormat<>().getOutputCommitter(attempt(conf, job, 0, 0));
      var e =
          assertThrows(
              ArchiveLockedException.class,
              () -> committer.setupJob(new JobContextImpl(conf, job)));
      assertTrue(e.getMessage().contains("locked by another writer"), e.getMessage());
      committer.abortJob(new JobContextImpl(conf, job), JobStatus.State.FAILED);
    }
    assertNoStagingLeft(archive);
  }

  @Test
  void aJobMayCreateItsOutputArchive() throws Exception {
    Path archive = hdfs.fs().makeQualified(hdfs.freshPath("new.hpf"));
    Configuration conf = conf(archive);
    JobID job = new JobID("create", 1);
    ArchiveOutputCommitter committer =
        new HpfOutputFormat<>().getOutputCommitter(attempt(conf, job, 0, 0));
    committer.setupJob(new JobContextImpl(conf, job));
    TaskAttemptContext a = attempt(conf, job, 0, 0);
    write(a, "n/1", "one", "n/2", "two");
    committer.commitTask(a);
    committer.commitJob(new JobContextImpl(conf, job));
    assertEquals(Map.of("n/1", "one", "n/2", "two"), ArchiveJobsTest.entries(archive));
    assertEquals(1, manifestGeneration(archive));
    assertNoStagingLeft(archive);
  }
}
