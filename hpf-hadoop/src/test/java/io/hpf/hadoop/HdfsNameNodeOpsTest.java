package io.hpf.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.read.SharedGenerations;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.FileNotFoundException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What hpf asks the NameNode for, counted by its own metrics: these tests run while no other test
 * class does (the shared cluster's counts would include theirs).
 */
@Isolated
class HdfsNameNodeOpsTest {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  @Test
  void aWarmGetAsksTheNameNodeNothing() throws Exception {
    io.hpf.store.Storage storage = hdfs.newArchive("warm.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(2000, 6);
    TestArchives.write(
        storage, model, WriterOptions.builder().codec(Codec.LZ4).bucketCapacity(100).build(), 2);
    List<String> names = List.copyOf(model.keySet());
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (String name : names) {
        reader.get(name); // warms: opens every part and bucket file once
      }
      long before = hdfs.nameNodeFileOps();
      SplittableRandom random = new SplittableRandom(7);
      for (int i = 0; i < 3000; i++) {
        String name = names.get(random.nextInt(names.size()));
        assertArrayEquals(model.get(name), reader.get(name), name);
        reader.stat("missing-" + i);
      }
      assertEquals(before, hdfs.nameNodeFileOps(), "NameNode operations during warm gets");
    }
  }

  @Test
  void aFreshReaderOfAnArchiveThisProcessHasReadOnlyListsIt() throws Exception {
    org.apache.hadoop.fs.Path dir = hdfs.freshPath("fresh.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 8);
    byte[] dictionary = TestArchives.dictionary(model, 16 * 1024);
    WriterOptions zstd = WriterOptions.builder().codec(Codec.ZSTD).dictionary(dictionary).build();
    TestArchives.write(
        HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false),
        model,
        zstd,
        1);
    String name = model.lastKey();
    freshGetOps(dir, name, model.get(name), false); // the first also fills the process's pages
    long shared = freshGetOps(dir, name, model.get(name), false);
    SharedGenerations.clear(); // what the process keeps between readers
    long pagesOnly = freshGetOps(dir, name, model.get(name), false);
    SharedGenerations.clear(); // what the process keeps between readers
    long uncached = freshGetOps(dir, name, model.get(name), true);
    // The generation the process keeps open: the listing shows its manifest is still the newest.
    assertEquals(1, shared, "NameNode operations of a fresh reader's get: the listing");
    // Let go, the manifest and the segment file (buckets, dictionary) still come from the
    // process's pages. Without them: the listing and opens of the manifest, segment file and part.
    assertEquals(
        2, pagesOnly, "NameNode operations of a fresh reader's get: the listing, the part");
    assertEquals(4, uncached, "NameNode operations of a fresh reader's get without shared pages");

    // The same path made again holds other files (other HDFS ids): nothing old is served.
    hdfs.fs().delete(dir, true);
    TreeMap<String, byte[]> other = new TreeMap<>(ArchiveModel::compareUtf8);
    for (String n : model.keySet()) {
      other.put(n, ("other " + n).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    TestArchives.write(
        HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false),
        other,
        WriterOptions.builder().codec(Codec.NONE).bucketCapacity(7).build(),
        1);
    for (String n : List.of(model.firstKey(), name)) {
      freshGetOps(dir, n, other.get(n), false);
    }
    // Opened to read, a missing archive or a file is reported by the first listing.
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, FileNames.partFileName(1));
    for (org.apache.hadoop.fs.Path notAnArchive : List.of(hdfs.freshPath("missing.hpf"), file)) {
      HadoopStorage storage =
          HadoopStorage.openToRead(hdfs.fs(), notAnArchive, HadoopStorageOptions.DEFAULTS, false);
      FileNotFoundException e =
          assertThrows(FileNotFoundException.class, () -> ArchiveReader.open(storage));
      assertTrue(
          e.getMessage().contains("no such archive directory")
              || e.getMessage().contains("not an archive (a file"),
          e.getMessage());
    }
  }

  /** NameNode operations of one get by a new reader (of a new storage), checking its bytes. */
  private static long freshGetOps(
      org.apache.hadoop.fs.Path dir, String name, byte[] expected, boolean withoutPageCache)
      throws Exception {
    long before = hdfs.nameNodeFileOps();
    HadoopStorage storage =
        HadoopStorage.openToRead(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveReader reader =
        ArchiveReader.open(withoutPageCache ? storage.withoutIndexPageCache() : storage)) {
      assertArrayEquals(expected, reader.get(name), name);
    }
    return hdfs.nameNodeFileOps() - before;
  }
}
