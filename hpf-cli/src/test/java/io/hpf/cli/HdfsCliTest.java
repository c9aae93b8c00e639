package io.hpf.cli;

import static io.hpf.cli.CliRun.hpf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.hadoop.MiniHdfs;
import io.hpf.testing.ArchiveModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands with hdfs:// URIs, against a real in-process HDFS. */
class HdfsCliTest {
  @TempDir static Path base;
  private static MiniHdfs hdfs;
  private static String uri;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = MiniHdfs.shared();
    uri = hdfs.fs().getUri().toString();
  }

  private static TreeMap<String, byte[]> writeLocalTree(Path dir, long seed) throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(200, seed);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      Path file = dir.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue());
    }
    return model;
  }

  private static void assertArchiveHolds(String archive, TreeMap<String, byte[]> model) {
    CliRun ls = hpf("ls", archive);
    assertEquals(0, ls.code(), ls.err());
    assertEquals(List.copyOf(model.keySet()), List.of(ls.text().split("\n")));
    for (String name : List.of(model.firstKey(), model.lastKey())) {
      CliRun cat = hpf("cat", archive, name);
      assertEquals(0, cat.code(), cat.err());
      assertArrayEquals(model.get(name), cat.out(), name);
    }
    CliRun verify = hpf("verify", archive);
    assertEquals(0, verify.code(), verify.err() + verify.text());
  }

  @Test
  void createFromLocalDiskWithHdfsOptionsThenReadEverything() throws Exception {
    TreeMap<String, byte[]> model = writeLocalTree(base.resolve("local"), 1);
    String archive = uri + "/data/local.hpf";
    CliRun create =
        hpf(
            "create",
            "-D",
            "dfs.replication=1",
            "--block-size",
            "1",
            "--index-block-size",
            "1",
            archive,
            base.resolve("local"));
    assertEquals(0, create.code(), create.err());
    for (FileStatus status : hdfs.fs().listStatus(new org.apache.hadoop.fs.Path(archive))) {
      assertEquals(1, status.getReplication());
      assertEquals(1L << 20, status.getBlockSize());
    }
    assertArchiveHolds(archive, model);
    CliRun info = hpf("info", "--json", archive);
    assertEquals(0, info.code(), info.err());
    assertTrue(info.text().contains("\"nameNodeAsPlainFiles\":{\"files\":200,"), info.text());
    // On HDFS a new archive is zstd (a local one lz4: CliTest): reads there are remote.
    assertTrue(info.text().contains("\"codec\":\"zstd\","), info.text());
  }

  /**
   * The recipe of docs/HADOOP.md for archives of billions of entries: an archive of many parts (as
   * a job of many tasks writes) rewritten into big parts of big blocks by {@code compact
   * --reclaim}, its NameNode objects counted by the NameNode.
   */
  @Test
  void compactReclaimGathersPartsIntoBigBlocks() throws Exception {
    Path tree = base.resolve("many-parts");
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    java.util.SplittableRandom random = new java.util.SplittableRandom(5);
    for (int i = 0; i < 48; i++) {
      byte[] content = new byte[100_000]; // incompressible: 4.8 MB stored
      random.nextBytes(content);
      model.put("f" + i, content);
      Files.createDirectories(tree);
      Files.write(tree.resolve("f" + i), content);
    }
    String archive = uri + "/data/many-parts.hpf";
    CliRun create = hpf("create", "--codec", "none", "--part-size", "1", archive, tree);
    assertEquals(0, create.code(), create.err());
    org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(archive);
    assertTrue(partFiles(dir).size() >= 4, "parts: " + partFiles(dir));

    CliRun compact =
        hpf(
            "compact",
            "--reclaim",
            "--grace",
            "0",
            "--part-size",
            "4096",
            "--block-size",
            "2048",
            "--index-block-size",
            "2048",
            archive);
    assertEquals(0, compact.code(), compact.err());
    List<FileStatus> parts = partFiles(dir);
    assertEquals(1, parts.size(), "parts: " + parts);
    for (FileStatus status : hdfs.fs().listStatus(dir)) {
      if (status.getPath().getName().matches(".*\\.hpf[ps]")) {
        assertEquals(2048L << 20, status.getBlockSize(), status.getPath().getName());
      }
    }
    assertArchiveHolds(archive, model);
    // The directory, its manifest, one part and one segment file, a block each.
    io.hpf.hadoop.NameNodeCost counted = io.hpf.hadoop.ArchiveCosts.counted(hdfs.fs(), dir);
    assertEquals(7, counted.objects(), counted.toString());
    CliRun info = hpf("info", "--json", archive);
    assertTrue(
        info.text().contains("\"nameNode\":{\"files\":3,\"directories\":1,\"blocks\":3,"),
        info.text());
  }

  private static List<FileStatus> partFiles(org.apache.hadoop.fs.Path dir) throws Exception {
    List<FileStatus> parts = new java.util.ArrayList<>();
    for (FileStatus status : hdfs.fs().listStatus(dir)) {
      if (status.getPath().getName().endsWith(".hpfp")) {
        parts.add(status);
      }
    }
    return parts;
  }

  @Test
  void createAndAddFromDirectoriesAlreadyOnHdfs() throws Exception {
    DistributedFileSystem fs = hdfs.fs();
    TreeMap<String, byte[]> first = ArchiveModel.random(150, 2);
    TreeMap<String, byte[]> second = ArchiveModel.random(50, 3);
    for (var set : List.of(Map.entry("in1", first), Map.entry("in2", second))) {
      for (Map.Entry<String, byte[]> e : set.getValue().entrySet()) {
        try (FSDataOutputStream out =
            fs.create(new org.apache.hadoop.fs.Path("/" + set.getKey() + "/" + e.getKey()))) {
          out.write(e.getValue());
        }
      }
    }
    String archive = uri + "/data/from-hdfs.hpf";
    CliRun create = hpf("create", archive, uri + "/in1/");
    assertEquals(0, create.code(), create.err());
    CliRun add = hpf("add", "--prefix", "more/", archive, uri + "/in2");
    assertEquals(0, add.code(), add.err());
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    model.putAll(first);
    second.forEach((k, v) -> model.put("more/" + k, v));
    assertArchiveHolds(archive, model);

    CliRun analyze = hpf("analyze", uri + "/in1");
    assertEquals(0, analyze.code(), analyze.err());
    assertTrue(analyze.text().contains("150 files"), analyze.text());

    // An archive inside the tree it packs leaves itself out, when created and added to.
    String inside = uri + "/in2/sub/self.hpf";
    CliRun self = hpf("create", inside, uri + "/in2");
    assertEquals(0, self.code(), self.err());
    CliRun again = hpf("add", "--prefix", "again/", inside, uri + "/in2/");
    assertEquals(0, again.code(), again.err());
    assertTrue(again.err().contains("self.hpf: the archive being written"), again.err());
    TreeMap<String, byte[]> twice = new TreeMap<>(ArchiveModel::compareUtf8);
    twice.putAll(second);
    second.forEach((k, v) -> twice.put("again/" + k, v));
    assertArchiveHolds(inside, twice);
  }

  @Test
  void cacheDirectivesForIndexFiles() throws Exception {
    String archive = uri + "/data/cached.hpf";
    writeLocalTree(base.resolve("cached"), 4);
    assertEquals(0, hpf("create", archive, base.resolve("cached")).code());
    CliRun add = hpf("cache", "add", archive);
    assertEquals(0, add.code(), add.err());
    CliRun status = hpf("cache", "status", archive);
    assertTrue(status.text().contains(".hpfs"), status.text());
    assertTrue(!status.text().contains(".hpfp"), status.text());
    CliRun remove = hpf("cache", "remove", archive);
    assertEquals(0, remove.code(), remove.err());
    assertEquals(1, hpf("cache", "add", base.resolve("cached").toString()).code(), "local: no");
  }

  @Test
  void errorsNameTheArchive() {
    CliRun ls = hpf("ls", uri + "/no/such.hpf");
    assertEquals(1, ls.code());
    assertTrue(ls.err().contains("/no/such.hpf") && ls.err().contains("no such"), ls.err());
  }
}
