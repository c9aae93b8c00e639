package io.hpf.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import io.hpf.hadoop.fs.ArchivePath;
import io.hpf.select.SelectorSyntaxException;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The input formats over archives on a real HDFS, against the archives' models. */
class HpfInputFormatTest {
  private static MiniHdfs hdfs;
  private static TreeMap<String, byte[]> model;
  private static Path archive;
  private static Configuration conf;

  @BeforeAll
  static void writeArchive() throws Exception {
    hdfs = MiniHdfs.shared();
    conf = new Configuration(hdfs.fs().getConf());
    model = ArchiveModel.random(500, 21);
    model.put("big/stream.bin", ArchiveModel.content(new SplittableRandom(2), 3 << 20));
    archive = hdfs.fs().makeQualified(hdfs.freshPath("in.hpf"));
    write(archive, model, HadoopStorageOptions.DEFAULTS.withPartBlockSize(64 << 10));
  }

  static void write(Path dir, TreeMap<String, byte[]> entries, HadoopStorageOptions options)
      throws Exception {
    HadoopStorage storage = HadoopStorage.createDirectories(hdfs.fs(), dir, options, false);
    try (ArchiveWriter writer =
        ArchiveWriter.create(
            storage, WriterOptions.builder().codec(Codec.ZSTD).maxPartBytes(400 << 10).build())) {
      int i = 0;
      for (var e : entries.entrySet()) {
        // Every third entry has an attribute, for selectors.
        Map<String, String> attrs = i % 3 == 0 ? Map.of("kind", "third") : Map.of();
        writer.add(
            e.getKey(), e.getValue(), new EntryMetadata(1_700_000_000_000L + i, 0644, attrs));
        i++;
      }
      writer.commit();
    }
  }

  @Test
  void splitsCoverEveryEntryOnceAtEverySplitSize() throws Exception {
    for (long splitSize : new long[] {16 << 10, 0, 1L << 40}) {
      Job job = ArchiveInputs.job(conf, archive);
      if (splitSize > 0) {
        ArchiveInputFormat.setSplitSize(job, splitSize);
      }
      TreeMap<String, byte[]> read = ArchiveInputs.readAll(new HpfInputFormat(), job);
      assertEquals(model.keySet(), read.keySet(), "split size " + splitSize);
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue(), read.get(e.getKey()), e.getKey());
      }
    }
  }

  @Test
  void aSmallInputGivesEveryMapSlotASplitByDefault() throws Exception {
    // About 6 MiB of incompressible entries in one part within one 128 MiB block: one split at
    // the block size, so one of a job's map slots would do all the work.
    TreeMap<String, byte[]> small = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(31);
    for (int i = 0; i < 200; i++) {
      small.put("f" + i, ArchiveModel.content(random, 20_000 + random.nextInt(20_000)));
    }
    Path dir = hdfs.fs().makeQualified(hdfs.freshPath("small.hpf"));
    io.hpf.testing.TestArchives.write(
        HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false),
        small,
        WriterOptions.builder().codec(Codec.NONE).build(),
        1);
    for (int maps : new int[] {1, 2, 4}) {
      // On a cluster: Hadoop's hint of map tasks per job.
      Job job = ArchiveInputs.job(conf, dir);
      job.getConfiguration().set("mapreduce.framework.name", "yarn");
      job.getConfiguration().setInt("mapreduce.job.maps", maps);
      assertEquals(maps, new HpfInputFormat().getSplits(job).size(), "mapreduce.job.maps " + maps);
      // With the local job runner: its map threads (it sets mapreduce.job.maps to 1 itself).
      Job local = ArchiveInputs.job(conf, dir);
      local.getConfiguration().set("mapreduce.framework.name", "local");
      local.getConfiguration().setInt("mapreduce.job.maps", 1);
      local.getConfiguration().setInt("mapreduce.local.map.tasks.maximum", maps);
      assertEquals(maps, new HpfInputFormat().getSplits(local).size(), "local maps " + maps);
      assertEquals(small.keySet(), ArchiveInputs.readAll(new HpfInputFormat(), local).keySet());
    }
    Job sized = ArchiveInputs.job(conf, dir);
    ArchiveInputFormat.setSplitSize(sized, 1L << 30);
    assertEquals(1, new HpfInputFormat().getSplits(sized).size(), "a split size given wins");
  }

  @Test
  void aSelectorChoosesOnMetadataAlone() throws Exception {
    Job job = ArchiveInputs.job(conf, archive);
    ArchiveInputFormat.setSelect(job, "(prefix:log or attr:kind=third) size:100..6k");
    TreeMap<String, byte[]> read = ArchiveInputs.readAll(new HpfInputFormat(), job);
    TreeMap<String, byte[]> expected = new TreeMap<>();
    int i = 0;
    for (var e : model.entrySet()) {
      boolean third = i++ % 3 == 0;
      int size = e.getValue().length;
      if ((e.getKey().startsWith("log") || third) && size >= 100 && size <= 6 << 10) {
        expected.put(e.getKey(), e.getValue());
      }
    }
    assertTrue(expected.size() > 50);
    assertEquals(expected.keySet(), read.keySet());
  }

  /** A user's own selector class. */
  public static final class BigOnes implements io.hpf.select.Selector {
    @Override
    public boolean select(io.hpf.archive.model.EntryInfo entry) {
      return entry.rawLength() > 1 << 20;
    }
  }

  @Test
  void aSelectorClassAndAnHpfPathNarrowTheInput() throws Exception {
    Job job = ArchiveInputs.job(conf, archive);
    ArchiveInputFormat.setSelector(job, BigOnes.class);
    assertEquals(
        java.util.Set.of("big/stream.bin"),
        ArchiveInputs.readAll(new HpfStreamInputFormat(), job).keySet());
    Path big = new Path(ArchivePath.hpfUri(archive.toUri(), "big").toString());
    TreeMap<String, byte[]> read =
        ArchiveInputs.readAll(new HpfStreamInputFormat(), ArchiveInputs.job(conf, big));
    assertEquals(java.util.Set.of("big/stream.bin"), read.keySet());
    assertArrayEquals(model.get("big/stream.bin"), read.get("big/stream.bin"));
  }

  @Test
  void computingSplitsAsksTheNameNodeNothingPerEntry() throws Exception {
    Job job = ArchiveInputs.job(conf, archive);
    long before = hdfs.nameNodeFileOps();
    int splits = new HpfInputFormat().getSplits(job).size();
    long ops = hdfs.nameNodeFileOps() - before;
    assertTrue(splits > 5);
    // A listing, the manifest, the catalog and block locations per part: not ~500 entries.
    assertTrue(ops < 30, "NameNode operations for " + model.size() + " entries: " + ops);
  }

  @Test
  void badInputIsAClearError() throws Exception {
    SelectorSyntaxException bad =
        assertThrows(
            SelectorSyntaxException.class,
            () -> ArchiveInputFormat.setSelect(Job.getInstance(conf), "prefix:a siz:3"));
    assertEquals(9, bad.position());
    Job missing = ArchiveInputs.job(conf, new Path(archive.getParent(), "nope*.hpf"));
    var e = assertThrows(IOException.class, () -> new HpfInputFormat().getSplits(missing));
    assertTrue(e.getMessage().contains("no such archive"), e.getMessage());
    Job small = ArchiveInputs.job(conf, archive);
    small.getConfiguration().setLong(HpfInputFormat.MAX_VALUE_BYTES, 1 << 20);
    var tooBig =
        assertThrows(IOException.class, () -> ArchiveInputs.readAll(new HpfInputFormat(), small));
    assertTrue(tooBig.getMessage().contains("HpfStreamInputFormat"), tooBig.getMessage());
  }
}
