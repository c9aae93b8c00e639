package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ModelArchive;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory of archives mounted as one tree: each archive at the path of its id, the directories
 * above them from the ids, an archive made later appearing, a commit seen.
 */
class MountDirectoryTest {
  @TempDir Path temp;

  private static TreeSet<String> list(Path dir) throws Exception {
    try (Stream<Path> children = Files.list(dir)) {
      TreeSet<String> names = new TreeSet<>();
      children.forEach(c -> names.add(c.getFileName().toString()));
      return names;
    }
  }

  /** The files under {@code dir} are the model's, and {@code more} besides. */
  private static void assertTreeIs(Map<String, byte[]> model, Path dir, String... more)
      throws Exception {
    TreeSet<String> files = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.filter(Files::isRegularFile).forEach(f -> files.add(dir.relativize(f).toString()));
    }
    TreeSet<String> expected = new TreeSet<>(model.keySet());
    expected.addAll(List.of(more));
    assertEquals(expected, files);
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())), e.getKey());
    }
  }

  @Test
  void everyArchiveUnderADirectoryAtItsPath() throws Exception {
    Mounted.assumeFuse();
    Path root = temp.resolve("archives");
    TreeMap<String, byte[]> photos =
        ModelArchive.write(root.resolve("photos.hpf"), Codec.ZSTD, 60, 1).live();
    TreeMap<String, byte[]> logs =
        ModelArchive.write(root.resolve("a/logs.hpf"), Codec.LZ4, 60, 2).live();
    Files.writeString(Files.createDirectories(root.resolve("a/plain")).resolve("x.txt"), "x");
    try (Mounted mount =
        Mounted.mount(
            root.toString(),
            temp.resolve("mnt"),
            "--uid",
            "1234",
            "--gid",
            "4321",
            "-o",
            "allow_other")) {
      Path mnt = mount.dir;
      String line =
          Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
              .filter(l -> l.contains(" " + mnt + " "))
              .findFirst()
              .orElseThrow();
      assertTrue(line.contains("allow_other") && line.contains(" ro"), "as asked: " + line);
      assertEquals(new TreeSet<>(List.of("a", "photos")), list(mnt));
      Path someFile = mnt.resolve("photos").resolve(photos.firstKey());
      for (Path p : List.of(mnt.resolve("a"), someFile)) {
        assertEquals(1234, Files.getAttribute(p, "unix:uid"), "owner shown: " + p);
        assertEquals(4321, Files.getAttribute(p, "unix:gid"), "group shown: " + p);
      }
      assertEquals(new TreeSet<>(List.of("logs")), list(mnt.resolve("a")), "no plain directory");
      assertTreeIs(photos, mnt.resolve("photos"));
      assertTreeIs(logs, mnt.resolve("a/logs"));

      try (ArchiveWriter w =
          ArchiveWriter.create(
              LocalStorage.createDirectories(root.resolve("a/later.hpf")),
              WriterOptions.builder().build())) {
        w.add("hello.txt", "hi".getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
        w.commit();
      }
      try (ArchiveWriter w =
          ArchiveWriter.open(
              LocalStorage.open(root.resolve("photos.hpf")), WriterOptions.builder().build())) {
        w.add("new.txt", "new".getBytes(StandardCharsets.UTF_8), EntryMetadata.of(0));
        w.commit();
      }
      long start = System.nanoTime();
      while (!Files.exists(mnt.resolve("a/later/hello.txt"))
          || !Files.exists(mnt.resolve("photos/new.txt"))) {
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "a new archive or commit not seen");
        Thread.sleep(50);
      }
      assertArrayEquals(
          "hi".getBytes(StandardCharsets.UTF_8),
          Files.readAllBytes(mnt.resolve("a/later/hello.txt")));
      assertEquals(new TreeSet<>(List.of("later", "logs")), list(mnt.resolve("a")));

      // An archive removed while open in the mount goes, and nothing waits on it.
      try (Stream<Path> files = Files.walk(root.resolve("a/logs.hpf"))) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(f);
        }
      }
      start = System.nanoTime();
      while (Files.exists(mnt.resolve("a/logs"))) {
        assertTrue(System.nanoTime() - start < 10_000_000_000L, "a removed archive still there");
        Thread.sleep(50);
      }
      assertEquals(new TreeSet<>(List.of("later")), list(mnt.resolve("a")));
      assertTreeIs(photos, mnt.resolve("photos"), "new.txt");
    }
  }
}
