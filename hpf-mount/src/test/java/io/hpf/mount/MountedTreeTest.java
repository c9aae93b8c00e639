package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.ModelArchive;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * One archive with every codec, groups, several segments with tombstones and replaced names,
 * unicode names, empty files, modes and an entry over 64 MiB, mounted as {@code hpf mount} mounts
 * it, against the same tree written to disk: by {@code diff -r} and {@code find}, by ranges of the
 * large entry, by eight threads at once, and every change refused.
 */
class MountedTreeTest {
  private static final int LARGE_BYTES = (64 << 20) + 4097;

  @TempDir static Path temp;

  /** What the archive holds: content, mtime and mode by name. */
  record Spec(byte[] content, long mtimeMillis, int mode) {}

  private static final TreeMap<String, Spec> model = new TreeMap<>(ArchiveModel::compareUtf8);
  private static Path source;
  private static Mounted mount;

  @BeforeAll
  static void mountIt() throws Exception {
    Mounted.assumeFuse();
    Path archive = temp.resolve("tree.hpf");
    Storage storage = LocalStorage.createDirectories(archive);
    ModelArchive made =
        ModelArchive.write(
            storage, 600, 29, new Codec[] {Codec.ZSTD, Codec.LZ4, Codec.NONE}, LARGE_BYTES);
    made.entries.forEach(
        (name, e) -> model.put(name, new Spec(e.content(), e.mtimeMillis(), 0644)));
    WriterOptions grouped =
        WriterOptions.builder().codec(Codec.ZSTD).groups(64 << 10, 4 << 10).build();
    try (ArchiveWriter writer = ArchiveWriter.open(storage, grouped)) {
      SplittableRandom random = new SplittableRandom(5);
      Map<String, Integer> extras = new TreeMap<>();
      extras.put("ünïcødé/façade-ß.txt", 0644);
      extras.put("日本語/ファイル.txt", 0644);
      extras.put("emoji/😀 smile.bin", 0644);
      extras.put("spaces in dir/a name.txt", 0644);
      extras.put("empty/zero", 0644);
      extras.put("empty/nested/also-zero", 0644);
      extras.put("modes/private", 0600);
      extras.put("modes/script.sh", 0755);
      extras.put("modes/readonly", 0444);
      // A directory listed in many pages: the kernel asks for about a hundred names at a time.
      for (int i = 0; i < 5000; i++) {
        extras.put(
            String.format(Locale.ROOT, "flat/a-rather-long-file-name-to-fill-pages-%05d.txt", i),
            0644);
      }
      for (Map.Entry<String, Integer> e : extras.entrySet()) {
        int size = e.getKey().startsWith("empty/") ? 0 : random.nextInt(1, 3000);
        byte[] content = ArchiveModel.content(random, size);
        long mtime = 1_700_000_000_123L + random.nextInt(1_000_000);
        writer.add(e.getKey(), content, new EntryMetadata(mtime, e.getValue(), Map.of()));
        model.put(e.getKey(), new Spec(content, mtime, e.getValue()));
      }
      writer.commit();
    }
    source = temp.resolve("source");
    writeTree(source);
    mount = Mounted.mount(archive.toString(), temp.resolve("mnt"));
  }

  @AfterAll
  static void unmount() throws Exception {
    if (mount != null) {
      mount.close();
    }
  }

  /** The model as files on disk, with the modes and mtimes the archive records. */
  private static void writeTree(Path root) throws IOException {
    for (Map.Entry<String, Spec> e : model.entrySet()) {
      Path file = root.resolve(e.getKey());
      Files.createDirectories(file.getParent());
      Files.write(file, e.getValue().content());
      Files.setPosixFilePermissions(file, permissions(e.getValue().mode()));
      Files.setLastModifiedTime(file, FileTime.fromMillis(e.getValue().mtimeMillis()));
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    Set<PosixFilePermission> set = java.util.EnumSet.noneOf(PosixFilePermission.class);
    PosixFilePermission[] order = PosixFilePermission.values(); // OWNER_READ ... OTHERS_EXECUTE
    for (int bit = 0; bit < 9; bit++) {
      if ((mode & (0400 >> bit)) != 0) {
        set.add(order[bit]);
      }
    }
    return set;
  }

  /** Runs a command in {@code dir}; its output, the test failing if it fails. */
  static String sh(Path dir, String... command) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
    assertEquals(0, p.exitValue(), String.join(" ", command) + ": " + out);
    return out;
  }

  private static List<String> sortedLines(String text) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    java.util.Collections.sort(lines);
    return lines;
  }

  @Test
  void theMountedTreeIsTheSourceTree() throws Exception {
    assertEquals("", sh(temp, "diff", "-r", source.toString(), mount.dir.toString()));
    String[] files = {"find", ".", "-type", "f", "-printf", "%P %s %m %T@\\n"};
    List<String> expected = sortedLines(sh(source, files));
    assertEquals(model.size(), expected.size());
    assertEquals(expected, sortedLines(sh(mount.dir, files)));
    String[] dirs = {"find", ".", "-type", "d", "-printf", "%P\\n"};
    assertEquals(sortedLines(sh(source, dirs)), sortedLines(sh(mount.dir, dirs)));
  }

  @Test
  void theLargeEntryReadsRightFromRandomOffsets() throws Exception {
    byte[] large = model.get(ModelArchive.LARGE_NAME).content();
    SplittableRandom random = new SplittableRandom(11);
    try (RandomAccessFile file =
        new RandomAccessFile(mount.dir.resolve(ModelArchive.LARGE_NAME).toFile(), "r")) {
      assertEquals(large.length, file.length());
      for (int i = 0; i < 40; i++) {
        int offset = random.nextInt(large.length);
        int length = Math.min(random.nextInt(1, 300_000), large.length - offset);
        byte[] got = new byte[length];
        file.seek(offset);
        file.readFully(got);
        assertArrayEquals(Arrays.copyOfRange(large, offset, offset + length), got, "at " + offset);
      }
      file.seek(large.length - 3);
      byte[] tail = new byte[10];
      assertEquals(3, file.read(tail));
      assertEquals(-1, file.read(tail), "past the end");
    }
  }

  @Test
  void eightThreadsReadingRandomFilesGetRightBytes() throws Exception {
    List<String> names = new ArrayList<>(model.keySet());
    names.remove(ModelArchive.LARGE_NAME);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        SplittableRandom random = new SplittableRandom(100 + t);
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 250; i++) {
                    String name = names.get(random.nextInt(names.size()));
                    assertArrayEquals(
                        model.get(name).content(),
                        Files.readAllBytes(mount.dir.resolve(name)),
                        name);
                  }
                  return 250;
                }));
      }
      for (Future<Integer> f : done) {
        assertEquals(250, f.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void everyChangeIsRefusedAsReadOnly() {
    Path dir = mount.dir;
    String name = model.firstKey();
    Path existing = dir.resolve(name);
    List<Executable> changes =
        List.of(
            () -> Files.write(dir.resolve("new-file"), new byte[] {1}),
            () -> Files.write(existing, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND),
            () -> Files.delete(existing),
            () -> Files.move(existing, dir.resolve("moved")),
            () -> Files.createDirectory(dir.resolve("new-dir")),
            () -> Files.delete(dir.resolve("modes")),
            () -> Files.setPosixFilePermissions(existing, permissions(0777)),
            () -> Files.setLastModifiedTime(existing, FileTime.fromMillis(0)),
            () -> Files.createSymbolicLink(dir.resolve("link"), existing));
    for (Executable change : changes) {
      FileSystemException e = assertThrows(FileSystemException.class, change);
      assertTrue(String.valueOf(e.getReason()).contains("Read-only file system"), e.getMessage());
    }
    assertTrue(Files.isRegularFile(existing));
  }
}
