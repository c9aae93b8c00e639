package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ModelArchive;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mount over its life: commits seen while files already open keep their bytes, a damaged entry
 * failing alone, a mount whose process was killed reported and cleared, bad arguments refused in
 * one line.
 */
class MountLifeTest {
  @TempDir Path temp;

  @BeforeEach
  void fuse() {
    Mounted.assumeFuse();
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aCommitIsSeenWithinASecondWhileOpenFilesKeepTheirBytes() throws Exception {
    Path archive = temp.resolve("live.hpf");
    ModelArchive made = ModelArchive.write(archive, Codec.ZSTD, 120, 3);
    TreeMap<String, byte[]> live = made.live();
    String kept = live.firstKey(); // replaced while open
    String gone = // deleted from a directory that keeps other names
        live.descendingKeySet().stream()
            .filter(
                n -> !parentOf(n).isEmpty() && childrenOf(live.keySet(), parentOf(n)).size() > 1)
            .findFirst()
            .orElseThrow();
    String sameSize = live.higherKey(kept); // replaced by other bytes of the same length
    byte[] sameSizeNew = live.get(sameSize).clone();
    for (int i = 0; i < sameSizeNew.length; i++) {
      sameSizeNew[i] ^= 0x55;
    }
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"))) {
      Path mnt = mount.dir;
      for (int i = 0; i < 2; i++) { // the second open keeps the pages the first one cached
        assertArrayEquals(live.get(sameSize), Files.readAllBytes(mnt.resolve(sameSize)));
      }
      // What the kernel now holds of these names must not outlive the commit.
      assertTrue(Files.exists(mnt.resolve(gone)));
      assertEquals(live.get(kept).length, Files.size(mnt.resolve(kept)));
      assertFalse(Files.exists(mnt.resolve("new/arrival.txt")));
      for (int i = 0; i < 2; i++) { // the kernel keeps listings: the second is its own
        assertEquals(childrenOf(live.keySet(), ""), list(mnt));
        assertEquals(childrenOf(live.keySet(), parentOf(gone)), list(mnt.resolve(parentOf(gone))));
      }
      // Held open across the commit, a directory's node outlives it: its listing must not.
      try (java.nio.file.DirectoryStream<Path> held =
              Files.newDirectoryStream(mnt.resolve(parentOf(gone)));
          InputStream open = Files.newInputStream(mnt.resolve(kept));
          java.nio.channels.FileChannel channel =
              java.nio.channels.FileChannel.open(mnt.resolve(kept))) {
        int first = open.read();
        try (ArchiveWriter w =
            ArchiveWriter.open(
                LocalStorage.open(archive), WriterOptions.builder().replace(true).build())) {
          w.add(kept, text("replaced"), EntryMetadata.of(0));
          w.add("new/arrival.txt", text("new"), EntryMetadata.of(0));
          w.delete(gone);
          w.add(sameSize, sameSizeNew, EntryMetadata.of(0));
          w.commit();
        }
        long committed = System.nanoTime();
        // Seen: the new name there, the deleted one gone, though the kernel had it cached.
        while (!Files.exists(mnt.resolve("new/arrival.txt")) || Files.exists(mnt.resolve(gone))) {
          assertTrue(
              System.nanoTime() - committed < 1_500_000_000L,
              "the commit not seen: " + Files.exists(mnt.resolve(gone)));
          Thread.sleep(20);
        }
        long seenMillis = (System.nanoTime() - committed) / 1_000_000;
        assertTrue(seenMillis < 1_500, "seen after " + seenMillis + " ms");
        // Listings the kernel kept are dropped with the commit.
        java.util.Set<String> now = new TreeSet<>(live.keySet());
        now.remove(gone);
        now.add("new/arrival.txt");
        assertEquals(childrenOf(now, ""), list(mnt));
        assertEquals(childrenOf(now, parentOf(gone)), list(mnt.resolve(parentOf(gone))));
        // The open file is the entry it was opened on: its size (fstat) too, not the name's.
        assertEquals(live.get(kept).length, channel.size());
        assertEquals(text("replaced").length, Files.size(mnt.resolve(kept)));
        byte[] rest = open.readAllBytes();
        byte[] old = live.get(kept);
        assertEquals(old.length, rest.length + (first < 0 ? 0 : 1));
        if (old.length > 0) {
          assertEquals(old[0] & 0xff, first);
          assertArrayEquals(java.util.Arrays.copyOfRange(old, 1, old.length), rest);
        }
      }
      assertEquals(text("replaced").length, Files.size(mnt.resolve(kept)));
      assertArrayEquals(text("replaced"), Files.readAllBytes(mnt.resolve(kept)));
      // Not from the pages cached of the entry it replaced, though its size is the same.
      assertArrayEquals(sameSizeNew, Files.readAllBytes(mnt.resolve(sameSize)));
      assertArrayEquals(text("new"), Files.readAllBytes(mnt.resolve("new/arrival.txt")));
    }
  }

  private static String parentOf(String name) {
    int slash = name.lastIndexOf('/');
    return slash < 0 ? "" : name.substring(0, slash);
  }

  /** The names in directory {@code dir} ("" the root) of a tree of these entry names. */
  private static java.util.Set<String> childrenOf(java.util.Set<String> names, String dir) {
    String prefix = dir.isEmpty() ? "" : dir + "/";
    java.util.Set<String> children = new TreeSet<>();
    for (String name : names) {
      if (name.startsWith(prefix)) {
        String rest = name.substring(prefix.length());
        children.add(rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest);
      }
    }
    return children;
  }

  private static java.util.Set<String> list(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }
  }

  @Test
  void aDamagedEntryFailsAloneAndTheLogSaysWhere() throws Exception {
    Path archive = temp.resolve("damaged.hpf");
    byte[] victim = new byte[200_000];
    new java.util.SplittableRandom(1).nextBytes(victim);
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(archive),
            WriterOptions.builder().codec(Codec.NONE).build())) {
      w.add("victim.bin", victim, EntryMetadata.of(0));
      w.add("healthy.txt", text("fine"), EntryMetadata.of(0));
      w.commit();
    }
    EntryInfo row;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      row = reader.stat("victim.bin");
    }
    Path part = archive.resolve(io.hpf.archive.ArchiveFormat.partFileName(row.partId()));
    long at = row.offset() + row.entryLength() / 2;
    try (RandomAccessFile file = new RandomAccessFile(part.toFile(), "rw")) {
      file.seek(at);
      int b = file.read();
      file.seek(at);
      file.write(b ^ 0x5a);
    }
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"))) {
      IOException e =
          assertThrows(
              IOException.class, () -> Files.readAllBytes(mount.dir.resolve("victim.bin")));
      assertTrue(String.valueOf(e.getMessage()).contains("Input/output error"), e.getMessage());
      assertArrayEquals(text("fine"), Files.readAllBytes(mount.dir.resolve("healthy.txt")));
      String log = mount.logText();
      assertTrue(log.contains(archive.toString()), log);
      assertTrue(log.contains("'victim.bin'"), log);
      assertTrue(log.contains(part.getFileName().toString()) && log.contains("offset"), log);
      assertFalse(log.contains("Exception") || log.contains("\tat "), "in our words: " + log);
    }
  }

  @Test
  void aMountWhoseProcessDiedIsReportedAndCleared() throws Exception {
    Path archive = temp.resolve("a.hpf");
    ModelArchive made = ModelArchive.write(archive, Codec.LZ4, 30, 8);
    Path dir = temp.resolve("mnt");
    Mounted first = Mounted.mount(archive.toString(), dir);
    ProcessHandle server = first.server().orElseThrow();
    server.destroyForcibly();
    server.onExit().get(30, TimeUnit.SECONDS);
    assertThrows(IOException.class, () -> Files.readAttributes(dir, "unix:ino")); // not connected

    Mounted.Run again = Mounted.run(MountMain.class, archive.toString(), dir.toString());
    assertEquals(1, again.exitCode());
    assertTrue(again.output().contains("hpf umount " + dir), again.output());
    assertEquals(1, again.output().strip().lines().count(), again.output());

    assertEquals(0, Mounted.run(UnmountMain.class, dir.toString()).exitCode());
    try (Mounted second = Mounted.mount(archive.toString(), dir)) {
      Map.Entry<String, byte[]> e = made.live().firstEntry();
      assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())));
      ProcessHandle serving = second.server().orElseThrow();
      assertEquals(0, Mounted.run(UnmountMain.class, dir.toString()).exitCode());
      serving.onExit().get(30, TimeUnit.SECONDS); // the mount's process ends when unmounted
      assertEquals(null, Mounts.typeAt(dir));
    }
  }

  @Test
  void badArgumentsAreOneLineInOurWords() throws Exception {
    Path notArchive = Files.createDirectories(temp.resolve("plain"));
    Files.writeString(notArchive.resolve("x"), "x");
    Path dir = Files.createDirectories(temp.resolve("mnt"));
    Path archive = temp.resolve("fine.hpf");
    ModelArchive.write(archive, Codec.LZ4, 3, 1);
    for (List<String> args :
        List.of(
            List.of(notArchive.toString(), dir.toString()),
            List.of(temp.resolve("missing.hpf").toString(), dir.toString()),
            List.of(notArchive.toString(), temp.resolve("no/such/dir").toString()),
            List.of(notArchive.toString(), dir.toString(), "--memory", "lots"),
            List.of(archive.toString(), dir.toString(), "-o", "bogus"),
            List.of(temp.toString(), dir.toString()))) { // a mount inside what it mounts
      Mounted.Run run = Mounted.run(MountMain.class, args.toArray(new String[0]));
      assertEquals(1, run.exitCode(), args + ": " + run.output());
      String out = run.output().strip();
      assertEquals(1, out.lines().count(), args + ": " + out);
      assertTrue(out.startsWith("hpf mount: "), out);
      assertFalse(out.contains("Exception") || out.contains("a bug in hpf"), out);
      assertFalse(out.contains("without saying why"), "the cause, not where to find it: " + out);
      if (args.contains("bogus")) {
        assertTrue(
            out.contains("unknown option") && out.contains("bogus"), "libfuse's why: " + out);
      }
    }
    assertEquals(null, Mounts.typeAt(dir), "nothing was mounted");
    Mounted.Run run = Mounted.run(UnmountMain.class, dir.toString());
    assertEquals(1, run.exitCode());
    assertEquals("hpf umount: " + dir + ": nothing is mounted here", run.output().strip());
  }
}
