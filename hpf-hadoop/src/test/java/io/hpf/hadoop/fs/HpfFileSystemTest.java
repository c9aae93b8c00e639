package io.hpf.hadoop.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathPermissionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The {@code hpf://} file system over an archive on a real HDFS, against the archive's model. Run
 * alone: one test counts the shared cluster's NameNode operations.
 */
@Isolated
class HpfFileSystemTest {
  private static MiniHdfs hdfs;
  private static TreeMap<String, byte[]> model;
  private static Path archiveDir;
  private static Path root;
  private static FileSystem hpf;
  private static final byte[] RAW_BIG = randomBytes(3 << 20);

  private static byte[] randomBytes(int size) {
    byte[] bytes = new byte[size];
    new SplittableRandom(size).nextBytes(bytes);
    return bytes;
  }

  @BeforeAll
  static void writeArchive() throws Exception {
    hdfs = MiniHdfs.shared();
    model = ArchiveModel.random(300, 42);
    // Entries streamed in pieces: compressible (zstd) and incompressible, over 1 MiB.
    byte[] text = new byte[5 << 20];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ('a' + (i * 7 + i / 1000) % 26);
    }
    model.put("big/text.log", text);
    model.put("big/random.bin", RAW_BIG);
    model.put("empty", new byte[0]);
    archiveDir = hdfs.fs().makeQualified(hdfs.freshPath("logs.hpf"));
    // Part blocks of 256 KiB: the large entries span several blocks.
    HadoopStorageOptions small = HadoopStorageOptions.DEFAULTS.withPartBlockSize(256 << 10);
    TestArchives.write(
        HadoopStorage.createDirectories(hdfs.fs(), archiveDir, small, false),
        model,
        WriterOptions.builder().codec(Codec.ZSTD).build(),
        2);
    Configuration conf = new Configuration(hdfs.fs().getConf());
    conf.setLong(OpenArchives.REFRESH_INTERVAL_MS, 0);
    root = new Path(ArchivePath.hpfUri(archiveDir.toUri(), "").toString());
    hpf = FileSystem.newInstance(root.toUri(), conf);
  }

  @AfterAll
  static void close() throws IOException {
    hpf.close();
  }

  /**
   * An archive made before writers refused a name that is also a directory (the crafted corpus's
   * {@code d/x} beside {@code d/x/y}): its listing shows {@code x} once, as the directory; the
   * path's status is the entry's, and both read by name.
   */
  @Test
  void aNameThatIsAlsoADirectoryIsListedOnceAsTheDirectory(@TempDir java.nio.file.Path local)
      throws Exception {
    io.hpf.archive.CraftedCorpus.write(local);
    Path clash =
        new Path(ArchivePath.hpfUri(local.resolve("name-clash.hpf").toUri(), "").toString());
    try (FileSystem fs = FileSystem.newInstance(clash.toUri(), new Configuration())) {
      List<String> listed =
          Arrays.stream(fs.listStatus(new Path(clash, "d")))
              .map(st -> st.getPath().getName() + (st.isDirectory() ? "/" : ""))
              .toList();
      assertEquals(List.of("x-1", "x/"), listed); // a directory sorts as "x/"
      assertFalse(fs.getFileStatus(new Path(clash, "d/x")).isDirectory());
      try (FSDataInputStream in = fs.open(new Path(clash, "d/x/y"))) {
        assertArrayEquals("under d/x".getBytes(StandardCharsets.UTF_8), in.readAllBytes());
      }
    }
  }

  @Test
  void registeredForTheSchemeWithoutConfiguration() throws IOException {
    assertTrue(hpf instanceof HpfFileSystem);
    assertEquals("hpf", root.toUri().getScheme());
    assertEquals(ArchivePath.authorityOf(hdfs.fs().getUri()), root.toUri().getAuthority());
  }

  @Test
  void treeLengthsAndBytesMatchTheModel() throws IOException {
    HpfTree.assertMatches(hpf, root, model);
  }

  @Test
  void recursiveListingFindsEveryEntry() throws IOException {
    Set<String> seen = new HashSet<>();
    var it = hpf.listFiles(root, true);
    while (it.hasNext()) {
      seen.add(
          it.next()
              .getPath()
              .toUri()
              .getPath()
              .substring(archiveDir.toUri().getPath().length() + 1));
    }
    assertEquals(model.keySet(), seen);
  }

  @Test
  void aRecursiveListingWithBlockLocationsAsksTheNameNodeOncePerPartNotPerEntry()
      throws IOException {
    Configuration conf = new Configuration(hdfs.fs().getConf());
    try (FileSystem fresh = FileSystem.newInstance(root.toUri(), conf)) {
      long before = hdfs.nameNodeFileOps();
      int n = 0;
      var it = fresh.listFiles(root, true); // LocatedFileStatus: each entry's block locations
      while (it.hasNext()) {
        assertTrue(it.next().getBlockLocations().length > 0);
        n++;
      }
      long ops = hdfs.nameNodeFileOps() - before;
      assertEquals(model.size(), n);
      assertTrue(ops < 20, n + " entries listed with " + ops + " NameNode operations");
    }
  }

  @Test
  void entryStatusCarriesItsMetadataAndDirectoriesAreDirectories() throws IOException {
    String name = model.keySet().stream().filter(n -> n.contains("/")).findFirst().orElseThrow();
    FileStatus s = hpf.getFileStatus(new Path(root, name));
    assertTrue(s.isFile());
    assertEquals(model.get(name).length, s.getLen());
    assertEquals(0644, s.getPermission().toShort());
    assertTrue(s.getModificationTime() >= 1_700_000_000_000L, "the entry's own mtime");
    assertEquals(hdfs.fs().getFileStatus(archiveDir).getOwner(), s.getOwner());
    assertEquals(256 << 10, s.getBlockSize());
    FileStatus dir = hpf.getFileStatus(new Path(root, name.substring(0, name.indexOf('/'))));
    assertTrue(dir.isDirectory());
    assertTrue(hpf.getFileStatus(root).isDirectory());
    assertTrue(hpf.exists(new Path(root, "big")));
    assertFalse(hpf.exists(new Path(root, "bi")), "a prefix of a directory name is no directory");
  }

  @Test
  void missingEntriesDirectoriesAndArchivesAreNotFound() throws IOException {
    var missing = assertThrows(FileNotFoundException.class, () -> hpf.open(new Path(root, "nope")));
    assertTrue(missing.getMessage().contains("no such entry"), missing.getMessage());
    var dir = assertThrows(FileNotFoundException.class, () -> hpf.open(new Path(root, "big")));
    assertTrue(dir.getMessage().contains("is a directory"), dir.getMessage());
    assertThrows(FileNotFoundException.class, () -> hpf.getFileStatus(new Path(root, "big/x")));
    assertThrows(FileNotFoundException.class, () -> hpf.listStatus(new Path(root, "nope")));
    Path noArchive = new Path(root.getParent(), "plain");
    var none = assertThrows(FileNotFoundException.class, () -> hpf.getFileStatus(noArchive));
    assertTrue(none.getMessage().contains("names no archive"), none.getMessage());
    Path absent = new Path(root.getParent(), "absent.hpf/x");
    assertThrows(FileNotFoundException.class, () -> hpf.getFileStatus(absent));
  }

  @Test
  void largeEntriesSeekBothWaysAndReadAtPositions() throws IOException {
    for (String name : List.of("big/text.log", "big/random.bin")) {
      byte[] expected = model.get(name);
      SplittableRandom random = new SplittableRandom(name.length());
      try (FSDataInputStream in = hpf.open(new Path(root, name))) {
        for (int trial = 0; trial < 12; trial++) {
          int at = random.nextInt(expected.length);
          int n = Math.min(random.nextInt(1, 100_000), expected.length - at);
          byte[] got = new byte[n];
          if (trial % 2 == 0) {
            in.seek(at);
            in.readFully(got);
            assertEquals(at + n, in.getPos());
          } else {
            long before = in.getPos();
            in.readFully(at, got, 0, n);
            assertEquals(before, in.getPos(), "a positioned read leaves the position");
          }
          assertArrayEquals(Arrays.copyOfRange(expected, at, at + n), got, name + " at " + at);
        }
        in.seek(expected.length);
        assertEquals(-1, in.read());
        assertThrows(IOException.class, () -> in.seek(expected.length + 1L));
      }
    }
  }

  @Test
  void blockLocationsAreThoseOfThePartBlocksHoldingTheEntry() throws IOException {
    FileStatus s = hpf.getFileStatus(new Path(root, "big/random.bin"));
    BlockLocation[] blocks = hpf.getFileBlockLocations(s, 0, s.getLen());
    assertTrue(blocks.length >= 12, "3 MiB over 256 KiB blocks: " + blocks.length);
    long covered = 0;
    for (BlockLocation b : blocks) {
      assertEquals(covered, b.getOffset(), "contiguous");
      covered += b.getLength();
      assertArrayEquals(
          hdfs.cluster().getDataNodes().stream()
              .map(d -> d.getDatanodeId().getHostName())
              .toArray(),
          b.getHosts());
    }
    assertEquals(s.getLen(), covered);
    BlockLocation[] tail = hpf.getFileBlockLocations(s, s.getLen() - 1, 1);
    assertEquals(1, tail.length, "only the block holding the last byte");
  }

  @Test
  void everyChangeIsRefusedNamingThePath() throws IOException {
    Path entry = new Path(root, "empty");
    for (var call :
        List.<IoCall>of(
            () -> hpf.create(new Path(root, "new")),
            () -> hpf.delete(entry, false),
            () -> hpf.mkdirs(new Path(root, "d")),
            () -> hpf.rename(entry, new Path(root, "moved")),
            () -> hpf.append(entry),
            () -> {
              hpf.setTimes(entry, 1, 1);
              return null;
            })) {
      var e = assertThrows(PathPermissionException.class, call::run);
      assertTrue(e.getMessage().contains("read-only"), e.getMessage());
    }
    assertTrue(hpf.hasPathCapability(root, CommonPathCapabilities.FS_READ_ONLY_CONNECTOR));
  }

  private interface IoCall {
    Object run() throws IOException;
  }

  @Test
  void globsMatchEntriesAndDirectories() throws IOException {
    FileStatus[] matched = hpf.globStatus(new Path(root, "big/*.{log,bin}"));
    assertEquals(2, matched.length);
    Set<String> expected = new HashSet<>();
    for (String name : HpfTree.directories(model.keySet())) {
      if (!name.contains("/") && name.startsWith("log")) {
        expected.add(name);
      }
    }
    for (String name : model.keySet()) {
      if (!name.contains("/") && name.startsWith("log")) {
        expected.add(name);
      }
    }
    Set<String> globbed = new HashSet<>();
    for (FileStatus s : hpf.globStatus(new Path(root, "log*"))) {
      globbed.add(s.getPath().getName());
    }
    assertEquals(expected, globbed);
  }

  @Test
  void aCommittedChangeIsSeenAndAnOpenStreamKeepsItsGeneration() throws Exception {
    Path archive = hdfs.fs().makeQualified(hdfs.freshPath("changing.hpf"));
    HadoopStorage storage =
        HadoopStorage.createDirectories(hdfs.fs(), archive, HadoopStorageOptions.DEFAULTS, false);
    TestArchives.write(
        storage, new TreeMap<>(Map.of("a", bytes("one"))), WriterOptions.builder().build(), 1);
    Path a = new Path(ArchivePath.hpfUri(archive.toUri(), "a").toString());
    FSDataInputStream before = hpf.open(a);
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().replace(true).build())) {
      writer.add("a", bytes("two!"), EntryMetadata.of(0));
      writer.add("b", bytes("new"), EntryMetadata.of(0));
      writer.commit();
    }
    assertEquals(4, hpf.getFileStatus(a).getLen(), "the new generation");
    assertTrue(hpf.exists(new Path(a.getParent(), "b")));
    byte[] old = new byte[3];
    before.readFully(old);
    before.close();
    assertArrayEquals(bytes("one"), old, "a stream reads the generation it was opened in");
  }

  @Test
  void anEmptyAuthorityMeansTheDefaultFileSystem() throws IOException {
    Configuration conf = new Configuration(hdfs.fs().getConf());
    conf.set("fs.defaultFS", hdfs.fs().getUri().toString());
    String name = model.firstKey();
    Path path = new Path("hpf:///" + archiveDir.toUri().getPath() + "/" + name);
    try (FileSystem viaDefault = FileSystem.newInstance(path.toUri(), conf);
        FSDataInputStream in = viaDefault.open(path)) {
      byte[] got = new byte[model.get(name).length];
      in.readFully(got);
      assertArrayEquals(model.get(name), got);
    }
  }

  @Test
  void pathsSplitAtTheArchiveComponent() throws IOException {
    URI fs = URI.create("hdfs://nn:8020");
    ArchivePath p = ArchivePath.parse(URI.create("hpf://hdfs-nn:8020/d/x.hpf/2024/a.log"), fs);
    assertEquals(URI.create("hdfs://nn:8020/d/x.hpf"), p.archive());
    assertEquals("2024/a.log", p.inner());
    ArchivePath local = ArchivePath.parse(URI.create("hpf://file-/tmp/a.hpf"), fs);
    assertEquals(URI.create("file:/tmp/a.hpf"), local.archive());
    assertEquals("", local.inner());
    assertEquals(
        URI.create("hdfs://nn:8020/a.hpf"),
        ArchivePath.parse(URI.create("hpf:///a.hpf/b/"), fs).archive());
    var bad =
        assertThrows(IOException.class, () -> ArchivePath.parse(URI.create("hpf://nn/a.hpf"), fs));
    assertTrue(bad.getMessage().contains("<scheme>-<host>:<port>"), bad.getMessage());
    assertEquals(
        URI.create("hpf://hdfs-nn:8020/d/x.hpf/e"),
        ArchivePath.hpfUri(URI.create("hdfs://nn:8020/d/x.hpf"), "e"));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
