package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.read.SharedGenerations;
import io.hpf.store.ForwardingStorage;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers of one process share the open current generation of an archive: a fresh reader costs two
 * questions to the storage, not a listing and its opens, and still sees every commit made before it
 * opened.
 */
@org.junit.jupiter.api.parallel.Isolated(
    "counts what the process-wide cache of open generations holds")
class SharedGenerationsTest {
  @TempDir Path temp;

  private static WriterOptions options() {
    return WriterOptions.builder().gracePeriodMillis(0).build();
  }

  private FaultyStorage shared(Path dir) throws IOException {
    return new FaultyStorage(LocalStorage.open(dir), 0).sharedAs("test " + dir);
  }

  /** Writes {@code model} as archive {@code name}, reads it once through a shared storage. */
  private FaultyStorage writtenAndRead(String name, TreeMap<String, byte[]> model, int threads)
      throws Exception {
    Path dir = temp.resolve(name);
    TestArchives.write(dir, model, options(), threads);
    FaultyStorage storage = shared(dir);
    assertReads(storage, model);
    return storage;
  }

  private static void assertReads(FaultyStorage storage, Map<String, byte[]> model)
      throws IOException {
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(model.size(), reader.entryCount());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
    }
  }

  @Test
  void freshReadersOfAnUnchangedArchiveListAndOpenNothing() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 1);
    FaultyStorage storage = writtenAndRead("a.hpf", model, 2);
    int opens = storage.opens();
    for (int i = 0; i < 20; i++) {
      assertReads(storage, model);
    }
    assertEquals(1, storage.listings(), "one listing, by the first reader");
    assertEquals(opens, storage.opens(), "no file opened again");
    // The first: the manifest's version again after reading it (the listing gave it before), and
    // that of each segment and part file once opened (they must be the files listed); then a
    // version and a question for the next manifest each.
    long segmentsAndParts =
        storage.list().stream()
            .filter(f -> f.name().endsWith(".hpfs") || f.name().endsWith(".hpfp"))
            .count();
    assertEquals(1 + segmentsAndParts + 2 * 20, storage.probes(), "questions to the storage");
    assertTrue(storage.openFiles() > 0, "the generation stays open for the next reader");
  }

  @Test
  void aFreshReaderSeesEveryCommitBeforeItAndReopensOnlyNewFiles() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(200, 2);
    FaultyStorage storage = writtenAndRead("c.hpf", model, 1);
    Path dir = temp.resolve("c.hpf");
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), options())) {
      writer.add("new/one", new byte[] {1, 2, 3}, EntryMetadata.of(0));
      writer.commit();
    }
    model.put("new/one", new byte[] {1, 2, 3});
    int opens = storage.opens();
    assertReads(storage, model);
    // The new manifest, the new segment file and the new part; the first part is shared.
    assertEquals(3, storage.opens() - opens, "files opened after a commit");
    assertEquals(2, storage.listings());

    String gone = model.firstKey();
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), options())) {
      writer.delete(gone);
      writer.commit();
    }
    model.remove(gone);
    assertReads(storage, model);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertNull(reader.stat(gone), "a deleted entry is gone for a reader opened after");
    }
  }

  @Test
  void anArchiveMadeAgainAtThePlaceIsReadAfresh() throws Exception {
    TreeMap<String, byte[]> first = ArchiveModel.random(100, 3);
    FaultyStorage storage = writtenAndRead("m.hpf", first, 1);
    Path dir = temp.resolve("m.hpf");
    // The same names and sizes, other bytes: a manifest of the same generation and length.
    TreeMap<String, byte[]> second = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(7);
    first.forEach(
        (name, content) -> {
          byte[] other = new byte[content.length];
          random.nextBytes(other);
          second.put(name, other);
        });
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    TestArchives.write(dir, second, options(), 1);
    assertReads(storage, second);
  }

  @Test
  void aGenerationLeftOutOfTheCacheStaysOpenForItsReadersAndClosesAfterTheLast() throws Exception {
    Path dir = temp.resolve("e.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(50, 4);
    TestArchives.write(dir, model, options(), 1);
    FaultyStorage storage = shared(dir);
    ArchiveReader kept = ArchiveReader.open(storage);
    kept.get(model.firstKey());
    for (int i = 0; i < SharedGenerations.CAPACITY; i++) {
      Path other = temp.resolve("other-" + i + ".hpf");
      TestArchives.write(other, ArchiveModel.random(5, 10 + i), options(), 1);
      ArchiveReader.open(LocalStorage.open(other)).close();
    }
    for (Map.Entry<String, byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), kept.get(e.getKey()), e.getKey());
    }
    assertTrue(storage.openFiles() > 0);
    kept.close();
    assertEquals(0, storage.openFiles(), "files still open after the last reader closed");
    kept.close(); // twice is harmless
  }

  @Test
  void aReaderOpenedAloneSharesNothingAndLeavesNothingOpen() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(40, 7);
    FaultyStorage storage = writtenAndRead("h.hpf", model, 1);
    int listings = storage.listings();
    int open = storage.openFiles();
    try (ArchiveReader alone = ArchiveReader.openAlone(storage)) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), alone.get(e.getKey()), e.getKey());
      }
      assertTrue(storage.openFiles() > open, "its own files");
    }
    assertEquals(listings + 1, storage.listings(), "an alone reader lists");
    assertEquals(open, storage.openFiles(), "files of the alone reader still open");
  }

  @Test
  void aReaderInterruptedMidReadLeavesTheSharedFilesReadable() throws Exception {
    Path dir = temp.resolve("i.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(60, 8);
    TestArchives.write(dir, model, options(), 1);
    // Positional reads: a read of a mapping is not interruptible, a channel's read is.
    FaultyStorage storage =
        new FaultyStorage(LocalStorage.open(dir).withPositionalReads(), 0).sharedAs("test " + dir);
    assertReads(storage, model);
    Throwable[] failed = new Throwable[1];
    Thread interrupted =
        new Thread(
            () -> {
              Thread.currentThread().interrupt(); // as an engine cancelling a task does
              try (ArchiveReader reader = ArchiveReader.open(storage)) {
                reader.get(model.firstKey());
              } catch (Throwable e) {
                failed[0] = e;
              }
            });
    interrupted.start();
    interrupted.join();
    assertTrue(failed[0] instanceof java.io.InterruptedIOException, String.valueOf(failed[0]));
    assertReads(storage, model); // Java closed the channel for everyone; it is open again
  }

  @Test
  void aFailedQuestionFailsThatOpenOnly() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(30, 5);
    FaultyStorage storage = writtenAndRead("f.hpf", model, 1);
    Path dir = temp.resolve("f.hpf");
    storage.failWithProbability(1);
    IOException e = assertThrows(IOException.class, () -> ArchiveReader.open(storage));
    assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    storage.failWithProbability(0);
    assertReads(storage, model);
  }

  /**
   * Old manifests go oldest first (while a manifest is there, so is every newer one) and after the
   * files only they name (a committed part never outlives every manifest naming it, or a writer
   * would take it for a dead writer's and bring its deleted entries back: DeletionSuite).
   */
  @Test
  void theCleanerDeletesFilesThenOldManifestsOldestFirst() throws Exception {
    Path dir = temp.resolve("g.hpf");
    TestArchives.write(dir, ArchiveModel.random(10, 6), options(), 1);
    List<String> deleted = new ArrayList<>();
    ForwardingStorage recording =
        new ForwardingStorage(LocalStorage.open(dir)) {
          @Override
          public void delete(String name) throws IOException {
            deleted.add(name);
            super.delete(name);
          }
        };
    // Commits with the grace period long, so that old manifests stay.
    WriterOptions keep = WriterOptions.builder().gracePeriodMillis(3_600_000L).build();
    for (int i = 0; i < 4; i++) {
      try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), keep)) {
        writer.add("more/" + i, new byte[] {(byte) i}, EntryMetadata.of(0));
        writer.commit();
      }
    }
    List<StoredFile> listing = recording.list();
    List<Long> generations =
        listing.stream()
            .map(f -> FileNames.manifestGeneration(f.name()))
            .filter(g -> g > 0)
            .sorted()
            .toList();
    assertTrue(generations.size() >= 5, "generations " + generations);
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      io.hpf.internal.maintenance.FileCleaner.clean(
          recording, listing, (Manifest) reader.manifest(), 0, System.currentTimeMillis());
    }
    List<Long> manifests =
        deleted.stream().map(FileNames::manifestGeneration).filter(g -> g >= 0).toList();
    assertEquals(generations.subList(0, generations.size() - 1), manifests);
    assertEquals(
        manifests,
        deleted.subList(deleted.size() - manifests.size(), deleted.size()).stream()
            .map(FileNames::manifestGeneration)
            .toList(),
        "manifests go after every other file: " + deleted);
    assertTrue(deleted.size() > manifests.size(), "files were deleted too: " + deleted);
  }
}
