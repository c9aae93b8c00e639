package io.hpf.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.crash.CrashTrials;
import io.hpf.internal.manifest.Manifest;
import io.hpf.testing.ArchiveAssertions;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crashes on a real HDFS: a writer process killed mid-work (its part files stay open, under a lease
 * of a dead client), and a DataNode stopped during a create.
 */
class HdfsCrashTest {
  @TempDir static Path base;
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    // Three DataNodes and two replicas: pipeline recovery has a DataNode to replace a lost one.
    hdfs = MiniHdfs.start(base, 3, 2);
  }

  @AfterAll
  static void stopCluster() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void writerKilledAtRandomMomentsLosesNothingCommitted() throws Exception {
    for (long seed = 1; seed <= 2; seed++) {
      org.apache.hadoop.fs.Path dir = hdfs.freshPath("crash-" + seed + ".hpf");
      HadoopStorage storage =
          HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false);
      // The child JVM needs a second or two to connect before its first step.
      CrashTrials.trial(
          storage, hdfs.fs().makeQualified(dir).toString(), HdfsCrashWriterMain.class, 2500, seed);
    }
  }

  @Test
  void dataNodeStoppedDuringCreateCompletesOrFailsCleanly() throws Exception {
    FileSystem fs = hdfs.fs();
    org.apache.hadoop.fs.Path dir = hdfs.freshPath("dn.hpf");
    HadoopStorage storage =
        HadoopStorage.createDirectories(fs, dir, HadoopStorageOptions.DEFAULTS, false);
    WriterOptions options = WriterOptions.builder().codec(Codec.LZ4).gracePeriodMillis(0).build();
    TreeMap<String, byte[]> first = ArchiveModel.random(200, 1);
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options)) {
      for (var e : first.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
      }
      writer.commit();
    }
    TreeMap<String, byte[]> second = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(2);
    boolean committed = false;
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      for (int i = 0; i < 3000; i++) {
        String name = "second/" + i;
        byte[] content = ArchiveModel.content(random, random.nextInt(20_000));
        writer.add(name, content, EntryMetadata.of(1));
        second.put(name, content);
        if (i == 1000) {
          hdfs.cluster().stopDataNode(0); // in the pipeline of the part being written, or not
        }
      }
      writer.commit();
      committed = true;
    } catch (IOException e) {
      // Failing cleanly is allowed: then the archive must be at its last commit.
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), e.toString());
    }
    System.err.println(
        committed
            ? "DataNode stopped during create: the commit went through pipeline recovery"
            : "DataNode stopped during create: the create failed cleanly");
    TreeMap<String, byte[]> expected = new TreeMap<>(first);
    if (committed) {
      expected.putAll(second);
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      ArchiveAssertions.assertMatchesModel(reader, expected);
      Manifest manifest = (Manifest) reader.manifest();
      assertEquals(committed ? 2 : 1, manifest.generation());
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
    // Whatever happened, the archive takes new writes.
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().breakLock(true).build())) {
      writer.add("after", new byte[] {7}, EntryMetadata.of(2));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertArrayEquals(new byte[] {7}, reader.get("after"));
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
    }
  }
}
