package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveReplacedException;
import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers that live long know which files they read: another archive put in an archive's place
 * (renamed over it, copied anew) with the same generation number is a new archive to {@code
 * refresh}, and a generation opened before never reads the new archive's files; a killed writer's
 * tails count as garbage for the reclaim policy and for what a reclaim reports.
 */
class ReplacedArchiveTest {
  @TempDir Path dir;

  /** Same names and sizes, other bytes: the entries lie at the same places in both. */
  static TreeMap<String, byte[]> model(long seed) {
    TreeMap<String, byte[]> m = new TreeMap<>();
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    for (int i = 0; i < 50; i++) {
      byte[] b = new byte[2000 + 37 * i];
      random.nextBytes(b);
      m.put("e" + i, b);
    }
    return m;
  }

  void replace(Path archive, TreeMap<String, byte[]> with) throws Exception {
    Path next = dir.resolve("next.hpf");
    TestArchives.write(next, with, WriterOptions.builder().build(), 1);
    Files.move(archive, dir.resolve("old-" + System.nanoTime()));
    Files.move(next, archive);
  }

  @Test
  void refreshTakesAnotherArchiveOfTheSameGenerationAsNew() throws Exception {
    Path archive = dir.resolve("a.hpf");
    TreeMap<String, byte[]> a = model(1);
    TreeMap<String, byte[]> b = model(2);
    TestArchives.write(archive, a, WriterOptions.builder().build(), 1);
    try (ArchiveReader first = ArchiveReader.open(LocalStorage.open(archive))) {
      assertArrayEquals(a.get("e3"), first.get("e3"));
      assertSame(first, first.refresh());
      replace(archive, b);
      try (ArchiveReader now = first.refresh()) {
        assertNotSame(first, now);
        assertEquals(first.manifest().generation(), now.manifest().generation());
        assertTrue(!now.manifest().follows(first.manifest()));
        for (Map.Entry<String, byte[]> e : b.entrySet()) {
          assertArrayEquals(e.getValue(), now.get(e.getKey()), e.getKey());
        }
        assertArrayEquals(a.get("e3"), first.get("e3"), "the old reader keeps its files");
      }
      try (ArchiveReader fresh = ArchiveReader.open(LocalStorage.open(archive))) {
        assertArrayEquals(b.get("e3"), fresh.get("e3"), "a fresh open is not given the old one");
      }
    }
  }

  @Test
  void aGenerationNeverReadsTheFilesOfAnArchivePutInItsPlace() throws Exception {
    Path archive = dir.resolve("a.hpf");
    TestArchives.write(archive, model(3), WriterOptions.builder().build(), 1);
    try (ArchiveReader old = ArchiveReader.openAlone(LocalStorage.open(archive))) {
      replace(archive, model(4)); // before the old reader opened a part or a segment file
      ArchiveReplacedException e =
          assertThrows(ArchiveReplacedException.class, () -> old.get("e7"));
      assertTrue(e.getMessage().contains("open it again"), e.getMessage());
    }
  }

  @Test
  void aKilledWritersTailsAreReclaimedAndCounted() throws Exception {
    Path archive = dir.resolve("t.hpf");
    TreeMap<String, byte[]> a = ArchiveModel.random(100, 5);
    TestArchives.write(archive, a, WriterOptions.builder().build(), 1);
    int partId;
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      partId = r.manifest().parts().get(0).partId();
    }
    // What a writer killed mid-entry leaves past a part's committed length (recovery commits a
    // dead writer's part up to its last good entry; the rest stays in the file).
    byte[] tail = new byte[3 << 20];
    new java.util.SplittableRandom(6).nextBytes(tail);
    Files.write(archive.resolve(FileNames.partFileName(partId)), tail, StandardOpenOption.APPEND);
    long before = filesBytes(archive);
    try (ArchiveWriter w =
        ArchiveWriter.open(
            LocalStorage.open(archive), WriterOptions.builder().gracePeriodMillis(0).build())) {
      CompactionResult r = w.compact(true);
      assertTrue(r.bytesReclaimed() >= tail.length, "reported " + r.bytesReclaimed());
    }
    long after = filesBytes(archive);
    // Freed on disk: the tail, less what the new part's and segment's own headers take.
    assertTrue(before - after > tail.length - 65536, (before - after) + " bytes freed");
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      for (Map.Entry<String, byte[]> e : a.entrySet()) {
        assertArrayEquals(e.getValue(), r.get(e.getKey()));
      }
    }
    // The policy: tails past the reclaim ratio make the next commit reclaim them.
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      partId = r.manifest().parts().get(0).partId();
    }
    Files.write(archive.resolve(FileNames.partFileName(partId)), tail, StandardOpenOption.APPEND);
    try (ArchiveWriter w =
        ArchiveWriter.open(
            LocalStorage.open(archive), WriterOptions.builder().gracePeriodMillis(0).build())) {
      w.add("one-more", new byte[] {1}, EntryMetadata.of(0));
      w.commit();
    }
    assertTrue(filesBytes(archive) < after + 100_000, "the tail was not reclaimed by policy");
  }

  static long filesBytes(Path archive) throws Exception {
    try (Stream<Path> files = Files.list(archive)) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
