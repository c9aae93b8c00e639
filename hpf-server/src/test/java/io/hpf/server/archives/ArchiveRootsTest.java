package io.hpf.server.archives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.roots.HadoopArchiveRoot;
import io.hpf.hadoop.roots.LocalArchiveRoot;
import io.hpf.testing.TestArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both roots find the same archives in a tree (nested, hidden and non-archive directories around
 * them) and open them; the directory resolves request paths to archives.
 */
class ArchiveRootsTest {
  @TempDir Path root;

  static final byte[] CONTENT = "x".getBytes(StandardCharsets.UTF_8);

  void tree() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>();
    model.put("e.txt", CONTENT);
    for (String dir : List.of("photos.hpf", "a/logs.hpf", "a/b/deep.hpf", ".hidden/x.hpf")) {
      TestArchives.write(root.resolve(dir), model, WriterOptions.builder().build(), 1);
    }
    Files.createDirectories(root.resolve("plain/dir"));
    Files.writeString(root.resolve("plain/file.hpf"), "a file, not an archive");
  }

  @Test
  void localAndHadoopRootsFindTheSameArchives() throws Exception {
    tree();
    Map<String, String> local = new LocalArchiveRoot(root).scan();
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    HadoopArchiveRoot hadoop =
        new HadoopArchiveRoot(fs, new org.apache.hadoop.fs.Path(root.toUri()));
    Map<String, String> found = hadoop.scan();
    assertEquals(List.of("a/b/deep", "a/logs", "photos"), List.copyOf(local.keySet()));
    assertEquals(local.keySet(), found.keySet());
    try (ArchiveReader reader = ArchiveReader.open(hadoop.open(found.get("a/logs")))) {
      assertArrayEquals(CONTENT, reader.get("e.txt"));
    }
    // One archive as the root: served under its name.
    assertEquals(
        List.of("photos"),
        List.copyOf(new LocalArchiveRoot(root.resolve("photos.hpf")).scan().keySet()));
  }

  /**
   * Whether the root is one archive is its content's to say, not its name's: a directory named
   * {@code *.hpf} holding archives is searched, and an archive under another name is served (also
   * given with a trailing slash).
   */
  @Test
  void theRootIsOneArchiveWhenItHoldsAManifestWhateverItsName() throws Exception {
    Path named = root.resolve("kept.hpf");
    TreeMap<String, byte[]> model = new TreeMap<>(Map.of("e.txt", CONTENT));
    TestArchives.write(named.resolve("scale.hpf"), model, WriterOptions.builder().build(), 1);
    TestArchives.write(named.resolve("more/x.hpf"), model, WriterOptions.builder().build(), 1);
    Path plain = root.resolve("plain-name");
    TestArchives.write(plain, model, WriterOptions.builder().build(), 1);
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    Map<Path, List<String>> expected =
        Map.of(named, List.of("more/x", "scale"), plain, List.of("plain-name"));
    for (Map.Entry<Path, List<String>> e : expected.entrySet()) {
      Path dir = e.getKey();
      assertEquals(e.getValue(), List.copyOf(new LocalArchiveRoot(dir).scan().keySet()));
      for (String uri : List.of(dir.toUri().toString(), dir.toUri().toString() + "/")) {
        Map<String, String> hadoop =
            new HadoopArchiveRoot(fs, new org.apache.hadoop.fs.Path(uri)).scan();
        assertEquals(e.getValue(), List.copyOf(hadoop.keySet()), uri);
      }
    }
  }

  @Test
  void pathsResolveToTheShortestArchiveAndAllowListsHideTheRest() throws Exception {
    tree();
    AtomicLong clock = new AtomicLong();
    ArchiveDirectory all = new ArchiveDirectory(new LocalArchiveRoot(root), null, 1000, clock::get);
    assertEquals(
        new ArchiveDirectory.Target("a/logs", "2024/x.log"), all.resolve("a/logs/2024/x.log"));
    assertEquals(new ArchiveDirectory.Target("a/logs", "x"), all.resolve("a/logs.hpf/x"));
    assertEquals(new ArchiveDirectory.Target("photos", ""), all.resolve("photos"));
    assertNull(all.resolve("a/nope/x"));
    ArchiveDirectory some =
        new ArchiveDirectory(
            new LocalArchiveRoot(root), java.util.Set.of("photos"), 1000, clock::get);
    assertNull(some.resolve("a/logs/x"));
    // An archive made later is found on a miss (at most once a second) or at the next rescan.
    TestArchives.write(
        root.resolve("later.hpf"),
        new TreeMap<>(Map.of("e.txt", CONTENT)),
        WriterOptions.builder().build(),
        1);
    clock.addAndGet(2_000_000_000L);
    assertEquals("later", all.resolve("later/e.txt").archive());
  }
}
