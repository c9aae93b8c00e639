package io.hpf.spark.pack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.HadoopSourceTree;
import io.hpf.pack.Packer;
import io.hpf.spark.SharedHdfs;
import io.hpf.spark.SharedSpark;
import io.hpf.store.Storage;
import io.hpf.testing.ArchiveModel;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** spark-pack of a tree on HDFS against hpf create of the same tree, entry by entry. */
class SparkPackTest {
  private static SparkSession spark;
  private static FileSystem fs;
  private static Configuration conf;
  private static Path tree;

  @BeforeAll
  static void writeTree() throws Exception {
    spark = SharedSpark.session();
    fs = SharedHdfs.fs();
    conf = spark.sparkContext().hadoopConfiguration();
    tree = SharedHdfs.freshPath("tree");
    byte[] words =
        String.join(" ", ArchiveModel.random(200, 4).keySet())
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // Eight writers at once: one HDFS create and close takes tens of milliseconds.
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(8);
    java.util.List<java.util.concurrent.Future<?>> writes = new java.util.ArrayList<>();
    for (int i = 0; i < 400; i++) {
      int n = i;
      writes.add(pool.submit(() -> writeFile(n, words)));
    }
    for (var w : writes) {
      w.get();
    }
    pool.shutdown();
  }

  /** File {@code i} of the tree: nested a few levels deep (listing goes to tasks), text-like. */
  private static Void writeFile(int i, byte[] words) throws IOException {
    SplittableRandom random = new SplittableRandom(i);
    Path file =
        new Path(
            tree, String.format(Locale.ROOT, "y%d/m%02d/d%02d/f%04d.log", i % 2, i % 5, i % 13, i));
    try (FSDataOutputStream out = fs.create(file, true, 4096, (short) 1, 1 << 20)) {
      int size = random.nextInt(0, 4000);
      for (int at = 0; at < size; ) {
        int n = Math.min(size - at, random.nextInt(1, words.length));
        out.write(words, random.nextInt(0, words.length - n + 1), n);
        at += n;
      }
    }
    if (i % 50 == 0) {
      fs.setPermission(file, new FsPermission((short) 0600));
    }
    return null;
  }

  private static TreeMap<String, Object[]> entries(Path archive) throws IOException {
    TreeMap<String, Object[]> out = new TreeMap<>();
    try (Storage storage = HadoopArchives.open(archive.toUri(), conf);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      for (var it = reader.list(""); it.hasNext(); ) {
        EntryInfo row = it.next();
        out.put(row.name(), new Object[] {reader.get(row), row.mtimeMillis(), row.mode()});
      }
    }
    return out;
  }

  @Test
  void sparkPackEqualsHpfCreateEntryByEntry() throws Exception {
    Path created = SharedHdfs.freshPath("created.hpf");
    try (Storage storage = HadoopArchives.create(created.toUri(), conf)) {
      Packer.pack(
          HadoopSourceTree.of(fs, tree),
          storage,
          WriterOptions.builder().codec(Codec.ZSTD).build(),
          Packer.Options.defaults(),
          ProgressListener.NONE);
    }
    Path packed = SharedHdfs.freshPath("packed.hpf");
    SparkPackResult result =
        SparkPack.run(
            spark,
            tree.toString(),
            packed.toString(),
            new SparkPackOptions(PackingRequest.codec(Codec.ZSTD), true, 2, 200 << 10, 1000));
    assertEquals(400, result.files());
    assertTrue(result.listTasks() > 1, "listed by tasks: " + result.listTasks());
    assertTrue(result.packTasks() > 1, "packed by tasks: " + result.packTasks());
    assertTrue(result.dictionaryBytes() > 0, "a dictionary was trained");
    TreeMap<String, Object[]> expected = entries(created);
    TreeMap<String, Object[]> actual = entries(packed);
    assertEquals(expected.keySet(), actual.keySet());
    for (var e : expected.entrySet()) {
      Object[] a = actual.get(e.getKey());
      assertArrayEquals((byte[]) e.getValue()[0], (byte[]) a[0], e.getKey());
      assertEquals(e.getValue()[1], a[1], e.getKey());
      assertEquals(e.getValue()[2], a[2], e.getKey());
    }
    assertFalse(fs.exists(new Path(packed, "_hpf_jobs")), "staging left behind");
  }

  /**
   * --solid: the archive records zstd level 10 and 256 KiB groups, and its entries are the tree's.
   */
  @Test
  void solidPackingIsRecordedAndReadsTheSame() throws Exception {
    String subtree = new Path(tree, "y0/m00").toString();
    Path plain = SharedHdfs.freshPath("plain-lz4.hpf");
    SparkPack.run(
        spark,
        subtree,
        plain.toString(),
        new SparkPackOptions(PackingRequest.codec(Codec.LZ4), false, 1, 1 << 20, 1000));
    Path defaults = SharedHdfs.freshPath("defaults.hpf");
    SparkPack.run(
        spark,
        subtree,
        defaults.toString(),
        new SparkPackOptions(PackingRequest.ARCHIVES, true, 1, 1 << 20, 1000));
    try (Storage storage = HadoopArchives.open(defaults.toUri(), conf);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      // Nothing asked, on HDFS: a new archive's defaults there, zstd (too few files here to
      // train a dictionary on).
      assertEquals(
          new io.hpf.archive.model.ArchiveSettings(Codec.ZSTD, 2048, 512, 3),
          reader.manifest().writerSettings());
    }
    try (Storage local =
        io.hpf.store.LocalStorage.createDirectories(
            io.hpf.testing.TempDirs.deletedAtExit("spark-pack-codec"))) {
      assertEquals(Codec.LZ4, SparkPackOptions.defaults().codec(local), "on local disk");
      assertEquals(
          Codec.ZSTD,
          new SparkPackOptions(new PackingRequest(null, 4, false, null, null), true, 1, 1, 1)
              .codec(local),
          "a level alone packs with zstd, as hpf create --level");
    }
    Path solid = SharedHdfs.freshPath("solid.hpf");
    SparkPack.run(
        spark,
        subtree,
        solid.toString(),
        new SparkPackOptions(
            new PackingRequest(null, null, true, null, null), true, 1, 1 << 20, 1000));
    try (Storage storage = HadoopArchives.open(solid.toUri(), conf);
        ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(
          new io.hpf.archive.model.ArchiveSettings(Codec.ZSTD, 262144, 65536, 10),
          reader.manifest().writerSettings());
    }
    TreeMap<String, Object[]> expected = entries(plain);
    for (Path other : List.of(solid, defaults)) {
      TreeMap<String, Object[]> actual = entries(other);
      assertEquals(expected.keySet(), actual.keySet());
      for (var e : expected.entrySet()) {
        assertArrayEquals((byte[]) e.getValue()[0], (byte[]) actual.get(e.getKey())[0], e.getKey());
      }
    }
  }

  @Test
  void helpShowsExamples() {
    java.io.StringWriter out = new java.io.StringWriter();
    picocli.CommandLine cli = new picocli.CommandLine(new SparkPackMain());
    cli.setOut(new java.io.PrintWriter(out));
    org.junit.jupiter.api.Assertions.assertEquals(0, cli.execute("--help"));
    org.junit.jupiter.api.Assertions.assertTrue(
        out.toString().contains("Examples:\n  hpf spark-pack hdfs://"), out.toString());
  }

  @Test
  void anExistingArchiveOrAMissingTreeIsRefused() throws Exception {
    Path packed = SharedHdfs.freshPath("twice.hpf");
    SparkPackOptions options =
        new SparkPackOptions(PackingRequest.codec(Codec.LZ4), false, 1, 1 << 20, 1000);
    SparkPack.run(spark, new Path(tree, "y0/m00").toString(), packed.toString(), options);
    Exception e =
        assertThrows(
            Exception.class,
            () -> SparkPack.run(spark, tree.toString(), packed.toString(), options));
    assertTrue(e.getMessage().contains("the archive exists"), e.getMessage());
    Exception missing =
        assertThrows(
            Exception.class,
            () ->
                SparkPack.run(
                    spark,
                    new Path(tree, "nope").toString(),
                    SharedHdfs.freshPath("x.hpf").toString(),
                    options));
    assertTrue(missing.getMessage().contains("no such directory"), missing.getMessage());
  }
}
