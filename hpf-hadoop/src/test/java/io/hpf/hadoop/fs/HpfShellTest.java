package io.hpf.hadoop.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.MiniHdfs;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Hadoop's own shell ({@code hadoop fs}) over {@code hpf://}, against the archive's model. Run
 * alone: the tests replace System.out and System.err to read what the shell says.
 */
@Isolated
class HpfShellTest {
  private static TreeMap<String, byte[]> model;
  private static String root;
  private static Configuration conf;

  @TempDir java.nio.file.Path local;

  @BeforeAll
  static void writeArchive() throws Exception {
    MiniHdfs hdfs = MiniHdfs.shared();
    model = ArchiveModel.random(200, 7);
    Path dir = hdfs.fs().makeQualified(hdfs.freshPath("shell.hpf"));
    TestArchives.write(
        HadoopStorage.createDirectories(hdfs.fs(), dir, HadoopStorageOptions.DEFAULTS, false),
        model,
        WriterOptions.builder().codec(Codec.LZ4).build(),
        2);
    root = ArchivePath.hpfUri(dir.toUri(), "").toString();
    conf = new Configuration(hdfs.fs().getConf());
  }

  /** What a shell command printed and returned. */
  private record Run(int exit, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }

    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (String line : text().split("\n")) {
        if (!line.isEmpty()) {
          lines.add(line);
        }
      }
      return lines;
    }
  }

  private static synchronized Run shell(String... args) throws Exception {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      exit = ToolRunner.run(new FsShell(new Configuration(conf)), args);
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    return new Run(exit, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }

  private static String path(String name) {
    return root + "/" + name;
  }

  @Test
  void lsRecursiveListsEveryEntryAndDirectory() throws Exception {
    Run run = shell("-ls", "-R", root);
    assertEquals(0, run.exit(), run.err());
    TreeSet<String> expected = new TreeSet<>(model.keySet());
    expected.addAll(HpfTree.directories(model.keySet()));
    TreeSet<String> listed = new TreeSet<>();
    for (String line : run.lines()) {
      int at = line.indexOf(root + "/");
      assertTrue(at > 0, line);
      String name = line.substring(at + root.length() + 1);
      listed.add(name);
      if (model.containsKey(name)) {
        assertTrue(line.startsWith("-rw-r--r--"), line);
        assertTrue(line.contains(" " + model.get(name).length + " "), line);
      } else {
        assertTrue(line.startsWith("d"), line);
      }
    }
    assertEquals(expected, listed);
  }

  @Test
  void catPrintsTheEntryBytes() throws Exception {
    for (String name : List.of(model.firstKey(), model.lastKey())) {
      Run run = shell("-cat", path(name));
      assertEquals(0, run.exit(), run.err());
      assertArrayEquals(model.get(name), run.out(), name);
    }
  }

  @Test
  void getCopiesADirectoryOut() throws Exception {
    String dir = HpfTree.directories(model.keySet()).first();
    Run run = shell("-get", path(dir), local.toString());
    assertEquals(0, run.exit(), run.err());
    String last = dir.substring(dir.lastIndexOf('/') + 1);
    int copied = 0;
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      if (e.getKey().startsWith(dir + "/")) {
        java.nio.file.Path file =
            local.resolve(last).resolve(e.getKey().substring(dir.length() + 1));
        assertArrayEquals(e.getValue(), Files.readAllBytes(file), e.getKey());
        copied++;
      }
    }
    assertTrue(copied > 0);
  }

  @Test
  void duAndCountAddUpTheModel() throws Exception {
    long bytes = model.values().stream().mapToLong(v -> v.length).sum();
    Run du = shell("-du", "-s", root);
    assertEquals(0, du.exit(), du.err());
    assertEquals(String.valueOf(bytes), du.text().trim().split("\\s+")[0]);
    Run count = shell("-count", root);
    assertEquals(0, count.exit(), count.err());
    String[] fields = count.text().trim().split("\\s+");
    int directories = HpfTree.directories(model.keySet()).size() + 1; // and the archive's root
    assertEquals(String.valueOf(directories), fields[0]);
    assertEquals(String.valueOf(model.size()), fields[1]);
    assertEquals(String.valueOf(bytes), fields[2]);
  }

  @Test
  void findMatchesNames() throws Exception {
    Run run = shell("-find", root, "-name", "img-*");
    assertEquals(0, run.exit(), run.err());
    TreeSet<String> expected = new TreeSet<>();
    for (String name : model.keySet()) {
      if (name.substring(name.lastIndexOf('/') + 1).startsWith("img-")) {
        expected.add(path(name));
      }
    }
    assertTrue(!expected.isEmpty());
    TreeSet<String> found = new TreeSet<>();
    for (String line : run.lines()) {
      found.add(new Path(line).toUri().toString());
    }
    TreeSet<String> wanted = new TreeSet<>();
    for (String p : expected) {
      wanted.add(new Path(p).toUri().toString());
    }
    assertEquals(wanted, found);
  }

  @Test
  void testReportsFilesAndDirectories() throws Exception {
    String dir = HpfTree.directories(model.keySet()).first();
    assertEquals(0, shell("-test", "-e", path(model.firstKey())).exit());
    assertEquals(0, shell("-test", "-f", path(model.firstKey())).exit());
    assertEquals(0, shell("-test", "-d", path(dir)).exit());
    assertEquals(1, shell("-test", "-f", path(dir)).exit());
    assertEquals(1, shell("-test", "-e", path("no/such")).exit());
  }

  @Test
  void changesAreRefusedAsReadOnly() throws Exception {
    Run rm = shell("-rm", path(model.firstKey()));
    assertTrue(rm.exit() != 0);
    assertTrue(rm.err().contains("read-only"), rm.err());
    Run mkdir = shell("-mkdir", path("newdir"));
    assertTrue(mkdir.exit() != 0);
    assertTrue(mkdir.err().contains("read-only"), mkdir.err());
  }
}
