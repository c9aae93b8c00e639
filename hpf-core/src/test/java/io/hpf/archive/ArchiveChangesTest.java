package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.format.Codec;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Add, replace, delete and compact, against a map model. */
class ArchiveChangesTest {
  @TempDir Path temp;

  private static WriterOptions.Builder options() {
    // No grace: old files go at once, which also checks that nothing still named is deleted.
    return WriterOptions.builder().codec(Codec.LZ4).bucketCapacity(50).gracePeriodMillis(0);
  }

  private static void assertArchive(LocalStorage storage, TreeMap<String, byte[]> model)
      throws Exception {
    for (LocalStorage mode : List.of(storage, storage.withPositionalReads())) {
      try (ArchiveReader reader = ArchiveReader.open(mode)) {
        assertMatchesModel(reader, model);
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> report.problems().toString());
  }

  @Test
  void randomSequencesOfAddReplaceDeleteAndCompactMatchTheModel() throws Exception {
    for (long seed = 1; seed <= 3; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      LocalStorage storage = LocalStorage.createDirectories(temp.resolve("m" + seed + ".hpf"));
      TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
      try (ArchiveWriter writer = ArchiveWriter.create(storage, options().build())) {
        writer.commit();
      }
      int serial = 0;
      for (int step = 0; step < 25; step++) {
        int op = random.nextInt(10);
        WriterOptions opts =
            options().replace(op >= 4 && op < 6).maxSegments(3 + random.nextInt(4)).build();
        try (ArchiveWriter writer = ArchiveWriter.open(storage, opts)) {
          if (op < 6) { // add (or replace) a batch
            int n = 1 + random.nextInt(60);
            List<String> existing = new ArrayList<>(model.keySet());
            for (int i = 0; i < n; i++) {
              String name =
                  opts.replace() && !existing.isEmpty() && random.nextBoolean()
                      ? existing.get(random.nextInt(existing.size()))
                      : ArchiveModel.randomName(random, serial++);
              if (!opts.replace() && model.containsKey(name)) {
                continue;
              }
              if (model.containsKey(name) && existing.indexOf(name) < 0) {
                continue; // already added in this batch: a name once per commit
              }
              byte[] content = ArchiveModel.content(random, random.nextInt(3000));
              writer.add(name, content, EntryMetadata.of(step));
              model.put(name, content);
              existing.remove(name);
            }
            writer.commit();
          } else if (op < 9 && !model.isEmpty()) { // delete some
            List<String> names = new ArrayList<>(model.keySet());
            for (int i = 0; i < 1 + random.nextInt(20) && !names.isEmpty(); i++) {
              String name = names.remove(random.nextInt(names.size()));
              writer.delete(name);
              model.remove(name);
            }
            writer.commit();
          } else {
            writer.compact(random.nextBoolean());
          }
          assertTrue(
              writer.manifest().segments().size() <= opts.maxSegments(),
              "segments " + writer.manifest().segments().size());
        }
        assertArchive(storage, model);
      }
    }
  }

  @Test
  void addingAnExistingNameNeedsReplaceAndMissingDeletesAreErrors() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("e.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options().reclaimRatio(2).build())) {
      writer.add("a", new byte[] {1}, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options().build())) {
      writer.add("a", new byte[] {2}, EntryMetadata.of(0));
      EntryExistsException e = assertThrows(EntryExistsException.class, writer::commit);
      assertEquals(List.of("a"), e.names());
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options().build())) {
      writer.delete("nope");
      assertThrows(EntryNotFoundException.class, writer::commit);
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertArrayEquals(new byte[] {1}, reader.get("a"));
      assertEquals(1, reader.manifest().generation(), "failed commits changed nothing");
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, options().replace(true).reclaimRatio(2).build())) {
      writer.add("a", new byte[] {3}, EntryMetadata.of(0));
      writer.commit();
      assertEquals(1, writer.deletePrefix(""));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertFalse(reader.exists("a"));
      assertEquals(0, reader.entryCount());
      List<String> log =
          reader.manifest().history().stream().map(Manifest.HistoryEntry::operation).toList();
      assertEquals(List.of("create 1 entries", "add --replace 1 entries", "rm 1 entries"), log);
    }
  }

  @Test
  void reclaimFreesTheSpaceOfDeletedEntries() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("r.hpf"));
    TreeMap<String, byte[]> model = ArchiveModel.random(400, 8);
    WriterOptions keep = options().reclaimRatio(2).build(); // no automatic reclaim
    try (ArchiveWriter writer = ArchiveWriter.create(storage, keep)) {
      for (var e : model.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
      }
      writer.commit();
    }
    long before;
    try (ArchiveWriter writer = ArchiveWriter.open(storage, keep)) {
      before = writer.manifest().partBytes();
      List<String> names = new ArrayList<>(model.keySet());
      for (int i = 0; i < 300; i++) {
        writer.delete(names.get(i));
        model.remove(names.get(i));
      }
      writer.commit();
      assertTrue(writer.manifest().deadBytes() > before / 2);
      CompactionResult result = writer.compact(true);
      assertTrue(result.reclaimed());
      assertTrue(result.bytesReclaimed() > before / 2, "reclaimed " + result.bytesReclaimed());
      assertEquals(0, writer.manifest().deadBytes());
      assertEquals(1, writer.manifest().segments().size());
    }
    assertArchive(storage, model);
  }

  @Test
  void aSecondWriterIsToldWhoHoldsTheLock() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("l.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options().build())) {
      writer.commit();
      ArchiveLockedException e =
          assertThrows(
              ArchiveLockedException.class, () -> ArchiveWriter.open(storage, options().build()));
      assertTrue(e.getMessage().contains("pid " + ProcessHandle.current().pid()), e.getMessage());
      assertTrue(e.getMessage().contains("hpf.lock"), e.getMessage());
    }
    // Released on close; a stale lock (a writer that died) is broken only on request.
    java.nio.file.Files.writeString(temp.resolve("l.hpf/hpf.lock"), "host x, pid 1, since then");
    assertThrows(
        ArchiveLockedException.class, () -> ArchiveWriter.open(storage, options().build()));
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options().breakLock(true).build())) {
      assertEquals(1, writer.manifest().generation());
    }
  }

  @Test
  void openReadersKeepTheirSnapshotThroughTheGracePeriodAndCanRefresh() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("g.hpf"));
    WriterOptions grace = options().gracePeriodMillis(60_000).build();
    try (ArchiveWriter writer = ArchiveWriter.create(storage, grace)) {
      writer.add("x", new byte[] {1}, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveReader old = ArchiveReader.open(storage)) {
      try (ArchiveWriter writer = ArchiveWriter.open(storage, grace)) {
        writer.delete("x");
        writer.commit();
        writer.add("y", new byte[] {2}, EntryMetadata.of(0));
        writer.commit();
        writer.compact(true); // rewrites everything; x's part is now unreferenced
      }
      assertArrayEquals(new byte[] {1}, old.get("x"), "the old snapshot still reads");
      try (ArchiveReader fresh = old.refresh()) {
        assertFalse(fresh.exists("x"));
        assertArrayEquals(new byte[] {2}, fresh.get("y"));
      }
    }
  }
}
