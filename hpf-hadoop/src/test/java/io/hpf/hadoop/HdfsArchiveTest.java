package io.hpf.hadoop;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.pack.Packer;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What HDFS adds: block placement, the HPF paper's options, NameNode costs, warm reads. */
class HdfsArchiveTest {
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
  }

  private static HadoopStorage storage(String name, HadoopStorageOptions options) throws Exception {
    return HadoopStorage.createDirectories(hdfs.fs(), hdfs.freshPath(name), options, false);
  }

  @Test
  void aGroupWriterKeepsItsPartOpenAcrossCommitsAndFreshReadersReadEachCommit() throws Exception {
    HadoopStorage storage = storage("group.hpf", HadoopStorageOptions.DEFAULTS);
    try (io.hpf.archive.ArchiveWriter w =
        io.hpf.archive.ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      w.add("seed", new byte[] {1}, io.hpf.archive.model.EntryMetadata.of(0));
      w.commit();
    }
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(8);
    try (io.hpf.archive.GroupCommitWriter w =
        io.hpf.archive.GroupCommitWriter.open(
            storage,
            WriterOptions.builder().build(),
            io.hpf.archive.GroupCommitWriter.Settings.DEFAULTS)) {
      for (int i = 0; i < 12; i++) {
        byte[] content = ArchiveModel.content(random, 100 + random.nextInt(5000));
        w.put("g/" + i, content, io.hpf.archive.model.EntryMetadata.of(0))
            .get(60, java.util.concurrent.TimeUnit.SECONDS);
        model.put("g/" + i, content);
        // A reader opened now lists the part still being written: HDFS must give it the length
        // of the last commit (hsync with UPDATE_LENGTH), or it would find the part cut short.
        try (ArchiveReader reader = ArchiveReader.open(storage)) {
          assertArrayEquals(content, reader.get("g/" + i));
        }
      }
      assertTrue(w.manifest().parts().size() <= 2, "parts " + w.manifest().parts());
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void entriesDoNotStraddleHdfsBlocksOfTheChosenSize() throws Exception {
    long blockSize = 64 * 1024;
    HadoopStorage storage =
        storage("aligned.hpf", HadoopStorageOptions.DEFAULTS.withPartBlockSize(blockSize));
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 400; i++) {
      int size = random.nextInt(20) == 0 ? 70_000 + random.nextInt(50_000) : random.nextInt(9000);
      model.put("f/" + i, ArchiveModel.content(random, size));
    }
    TestArchives.write(storage, model, WriterOptions.builder().codec(Codec.NONE).build(), 2);
    DistributedFileSystem fs = hdfs.fs();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      int checked = 0;
      for (String name : model.keySet()) {
        EntryInfo row = reader.stat(name);
        org.apache.hadoop.fs.Path part =
            new org.apache.hadoop.fs.Path(
                storage.directory(), FileNames.partFileName(row.partId()));
        FileStatus status = fs.getFileStatus(part);
        assertEquals(blockSize, status.getBlockSize());
        if (row.entryLength() <= blockSize) {
          // HDFS itself says the entry's bytes lie in one block.
          BlockLocation[] blocks =
              fs.getFileBlockLocations(status, row.offset(), row.entryLength());
          assertEquals(1, blocks.length, name + " at " + row.offset() + " spans blocks");
          checked++;
        }
      }
      assertTrue(checked > 300);
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void replicationAndBlockSizesApplyToPartAndIndexFiles() throws Exception {
    HadoopStorage storage =
        storage("options.hpf", new HadoopStorageOptions((short) 1, 1L << 20, 256 * 1024, false));
    TestArchives.write(storage, ArchiveModel.random(300, 3), WriterOptions.builder().build(), 1);
    for (FileStatus status : hdfs.fs().listStatus(storage.directory())) {
      String name = status.getPath().getName();
      assertEquals(1, status.getReplication(), name);
      assertEquals(
          FileNames.isPartFileName(name) ? 1L << 20 : 256 * 1024, status.getBlockSize(), name);
    }
  }

  @Test
  void lazyPersistWhileCreatingThenHot() throws Exception {
    HadoopStorage storage =
        storage("lazy.hpf", HadoopStorageOptions.DEFAULTS.withLazyPersist(true));
    TreeMap<String, byte[]> model = ArchiveModel.random(100, 4);
    TestArchives.write(storage, model, WriterOptions.builder().build(), 1);
    DistributedFileSystem fs = hdfs.fs();
    FileStatus[] files = fs.listStatus(storage.directory());
    assertEquals(3, files.length, "a manifest, a part and a segment file");
    for (FileStatus status : files) {
      assertEquals(
          "LAZY_PERSIST",
          fs.getStoragePolicy(status.getPath()).getName(),
          status.getPath().getName());
    }
    storage.resetLazyPersist();
    // The directory is back to the default; files written lazily keep LAZY_PERSIST (HDFS 3 does
    // not let it change, and hpf never appends to a file it closed), later files are HOT.
    assertEquals("HOT", fs.getStoragePolicy(storage.directory()).getName());
    HadoopStorage later =
        HadoopStorage.open(fs, storage.directory(), HadoopStorageOptions.DEFAULTS, false);
    try (ArchiveWriter writer = ArchiveWriter.open(later, WriterOptions.builder().build())) {
      writer.add("later", new byte[] {1, 2}, EntryMetadata.of(0));
      writer.commit();
    }
    model.put("later", new byte[] {1, 2});
    int hot = 0;
    for (FileStatus status : fs.listStatus(storage.directory())) {
      if (!java.util.Arrays.asList(files).contains(status)) {
        assertEquals("HOT", fs.getStoragePolicy(status.getPath()).getName());
        hot++;
      }
    }
    assertTrue(hot >= 3, "files written after the reset");
    try (ArchiveReader reader = ArchiveReader.open(later)) {
      assertMatchesModel(reader, model);
    }
  }

  /** What the NameNode itself holds for a subtree: inodes (files and directories) and blocks. */
  private static NameNodeCost nameNodeCount(org.apache.hadoop.fs.Path dir) throws Exception {
    return ArchiveCosts.counted(hdfs.fs(), dir);
  }

  @Test
  void archiveCostsMatchWhatTheNameNodeCounts() throws Exception {
    DistributedFileSystem fs = hdfs.fs();
    TreeMap<String, byte[]> model = ArchiveModel.random(500, 8);
    HadoopStorage storage =
        storage("cost.hpf", HadoopStorageOptions.DEFAULTS.withPartBlockSize(64 * 1024));
    TestArchives.write(storage, model, WriterOptions.builder().build(), 2);
    long partBytes;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(1, reader.manifest().parts().size(), "the two threads share one part");
      partBytes = reader.manifest().parts().get(0).committedLength();
    }
    NameNodeCost archive = ArchiveCosts.ofArchive(storage, fs.getDefaultBlockSize());
    assertEquals(nameNodeCount(storage.directory()), archive);
    // One commit: the manifest, the part and the segment file (catalog and index).
    assertEquals(3, archive.files(), archive.toString());
    // Written by one stream, the part takes a block per 64 KiB; the others one block each.
    assertEquals(
        2 + (partBytes + (64 << 10) - 1) / (64 << 10), archive.blocks(), archive.toString());

    // The same entries as plain files, written for real: the model's count is the real one.
    org.apache.hadoop.fs.Path plain = hdfs.freshPath("plain");
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(plain, e.getKey()))) {
        out.write(e.getValue());
      }
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(
          nameNodeCount(plain), ArchiveCosts.ofEntriesAsFiles(reader, fs.getDefaultBlockSize()));
    }
  }

  @Test
  void aCommitOfFourThreadsTakesThreeFilesAndABlockEach() throws Exception {
    HadoopStorage storage = storage("commit.hpf", HadoopStorageOptions.DEFAULTS);
    TreeMap<String, byte[]> model = ArchiveModel.random(2000, 12);
    TestArchives.write(storage, model, WriterOptions.builder().build(), 4);
    NameNodeCost counted = nameNodeCount(storage.directory());
    // The bound for one commit: 5 + 1 per GiB of parts (files and blocks).
    assertEquals(new NameNodeCost(3, 1, 3), counted, "manifest, part and segment file");
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
    }
  }

  @Test
  void packsADirectoryThatIsAlreadyOnHdfs() throws Exception {
    DistributedFileSystem fs = hdfs.fs();
    org.apache.hadoop.fs.Path incoming = hdfs.freshPath("incoming");
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 9);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      try (FSDataOutputStream out =
          fs.create(new org.apache.hadoop.fs.Path(incoming, e.getKey()))) {
        out.write(e.getValue());
      }
    }
    HadoopStorage target = storage("packed.hpf", HadoopStorageOptions.DEFAULTS);
    Packer.pack(
        HadoopSourceTree.of(fs, incoming),
        target,
        WriterOptions.builder().build(),
        new Packer.Options(2, false, false, true),
        ProgressListener.NONE);
    try (ArchiveReader reader = ArchiveReader.open(target)) {
      assertMatchesModel(reader, model);
      // A new archive where reads are remote is zstd with a dictionary trained on its files.
      assertTrue(target.readsAreRemote());
      assertEquals(io.hpf.archive.model.Codec.ZSTD, reader.manifest().writerSettings().codec());
      assertEquals(1, ((Manifest) reader.manifest()).dictionaries().size());
    }
    assertThrows(
        FileNotFoundException.class,
        () -> HadoopSourceTree.of(fs, new org.apache.hadoop.fs.Path("/no/such/dir")));
  }

  @Test
  void indexCacheDirectivesCoverIndexFilesOnly() throws Exception {
    HadoopStorage storage = storage("cached.hpf", HadoopStorageOptions.DEFAULTS);
    TestArchives.write(
        storage,
        ArchiveModel.random(300, 10),
        WriterOptions.builder().bucketCapacity(50).build(),
        1);
    IndexCache cache = new IndexCache(hdfs.fs(), storage.directory());
    int added = cache.add("hpf-test");
    long indexFiles =
        storage.list().stream().filter(f -> !FileNames.isPartFileName(f.name())).count();
    assertEquals(indexFiles, added);
    assertEquals(0, cache.add("hpf-test"), "a second add finds every file covered");
    for (IndexCache.Directive d : cache.list()) {
      assertTrue(!FileNames.isPartFileName(Path.of(d.path()).getFileName().toString()));
    }
    assertEquals(indexFiles, cache.remove());
    assertEquals(0, cache.list().size());
  }
}
