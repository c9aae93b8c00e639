package io.hpf.pack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.pack.SourceTree.SourceFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walk of a local tree, against a model of the tree made: every regular file once, with its
 * size, time and mode as {@code lstat} gives them (set-user-id kept), under its path with '/';
 * links, special files and the archive being written listed as skipped, never packed.
 */
class LocalSourceTreeTest {
  @TempDir Path temp;

  /** What the walk must give for a file: size, mtime in milliseconds, mode bits. */
  private record Listed(long size, long mtimeMillis, int mode) {}

  @Test
  void theWalkGivesEveryRegularFileWithItsAttributesAndListsWhatItSkips() throws Exception {
    Path root = Files.createDirectories(temp.resolve("tree"));
    Map<String, Listed> model = new TreeMap<>();
    make(root, "top.txt", 5, 0644, 1_600_000_000_123L, model);
    make(root, "a/b/c/deep.bin", 0, 0600, 1_500_000_000_000L, model);
    make(root, "a/b/run.sh", 12, 0755, 1_400_000_000_999L, model);
    make(root, "a/setuid", 3, 04755, 1_300_000_000_000L, model);
    make(root, "a/sticky-dir-file", 7, 01777, 1_200_000_000_000L, model);
    make(root, "x/ünïcode näme", 9, 0640, 1_100_000_000_000L, model);
    Files.createDirectories(root.resolve("empty/dir"));
    Files.createSymbolicLink(root.resolve("a/link"), root.resolve("top.txt"));
    Process fifo = new ProcessBuilder("mkfifo", root.resolve("x/pipe").toString()).start();
    assertEquals(0, fifo.waitFor());
    Path archive = Files.createDirectories(root.resolve("out.hpf"));
    Files.write(archive.resolve("manifest"), new byte[] {1});

    List<String> skipped = new ArrayList<>();
    Map<String, Listed> walked = new TreeMap<>();
    LocalSourceTree.of(root, archive)
        .walk(
            "in/",
            new Packer.Options(2, false, false, false),
            skipped,
            f -> walked.put(f.name(), listed(f)),
            () -> false);

    Map<String, Listed> expected = new TreeMap<>();
    model.forEach((name, listed) -> expected.put("in/" + name, listed));
    assertEquals(expected, walked);
    assertEquals(3, skipped.size(), skipped.toString());
    assertTrue(has(skipped, "a/link: symbolic link (use --follow-symlinks"), skipped.toString());
    assertTrue(has(skipped, "x/pipe: not a regular file"), skipped.toString());
    assertTrue(has(skipped, "out.hpf: the archive being written"), skipped.toString());
  }

  @Test
  void aWalkStopsWhenAskedTo() throws Exception {
    Path root = Files.createDirectories(temp.resolve("many"));
    Map<String, Listed> model = new TreeMap<>();
    for (int i = 0; i < 50; i++) {
      make(root, "d" + (i % 5) + "/f" + i, i, 0644, 1_000_000_000_000L, model);
    }
    List<String> names = new ArrayList<>();
    LocalSourceTree.of(root)
        .walk(
            "",
            new Packer.Options(1, false, false, false),
            new ArrayList<>(),
            f -> names.add(f.name()),
            () -> names.size() >= 7);
    assertEquals(7, names.size(), names.toString());
  }

  /** A file that changed between the listing and the read is read as it is then, never cut. */
  @Test
  void aFileReadAfterItChangedIsReadWholeOrRefusedNeverCut() throws Exception {
    Path root = Files.createDirectories(temp.resolve("changing"));
    Files.write(root.resolve("grows"), new byte[100]);
    Files.write(root.resolve("grows-past-the-buffer"), new byte[100]);
    Files.write(root.resolve("shrinks"), new byte[100]);
    Map<String, SourceFile> listed = new TreeMap<>();
    LocalSourceTree.of(root)
        .walk(
            "",
            new Packer.Options(1, false, false, false),
            new ArrayList<>(),
            f -> listed.put(f.name(), f),
            () -> false);
    byte[] grown = new byte[150];
    grown[149] = 7;
    Files.write(root.resolve("grows"), grown);
    Files.write(root.resolve("grows-past-the-buffer"), grown);
    Files.write(root.resolve("shrinks"), new byte[] {1, 2, 3});

    byte[] roomy = new byte[4096];
    assertEquals(150, listed.get("grows").readInto(roomy));
    assertEquals(7, roomy[149]);
    byte[] tight = new byte[101]; // the size listed and one byte
    java.io.IOException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.IOException.class, () -> listed.get("grows-past-the-buffer").readInto(tight));
    assertTrue(e.getMessage().contains("grew while being read"), e.getMessage());
    assertEquals(3, listed.get("shrinks").readInto(roomy));
    assertEquals(3, roomy[2]);
  }

  private static void make(
      Path root, String name, int size, int mode, long mtimeMillis, Map<String, Listed> model)
      throws Exception {
    Path file = root.resolve(name);
    Files.createDirectories(file.getParent());
    Files.write(file, new byte[size]);
    Files.setAttribute(file, "unix:mode", mode);
    Files.setLastModifiedTime(file, FileTime.from(mtimeMillis, TimeUnit.MILLISECONDS));
    model.put(name, new Listed(size, mtimeMillis, mode & 07777));
  }

  private static Listed listed(SourceFile f) {
    return new Listed(f.size(), f.mtimeMillis(), f.mode());
  }

  private static boolean has(List<String> skipped, String text) {
    return skipped.stream().anyMatch(s -> s.contains(text));
  }
}
