package io.hpf.testing;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.AppendableFile;
import io.hpf.store.ForwardingStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deleted entries never come back, in every order of delete, reclaim, grace period, a writer that
 * died and the next writer's recovery. A reclaiming compaction drops the part files it emptied from
 * the manifest while they wait out the grace period; the next writer must not take them for the
 * work of a writer that died. Each case also leaves a real dead writer's part beside them, whose
 * entries must be recovered: recovery still works, for what was never committed. Subclasses say
 * where archives live (local disk, HDFS).
 */
public abstract class DeletionSuite {
  /** A new, empty archive directory called {@code name}. */
  protected abstract Storage newStorage(String name) throws Exception;

  /** The grace periods to try: keeping old files (where deletes came back) and none. */
  protected static Stream<Long> gracePeriods() {
    return Stream.of(60_000L, 0L);
  }

  enum Removal {
    SOME,
    ALL_BY_PREFIX
  }

  enum Reclaim {
    AUTOMATIC,
    EXPLICIT,
    NONE
  }

  static Stream<Arguments> orders() {
    List<Arguments> all = new ArrayList<>();
    for (long grace : (Iterable<Long>) gracePeriods()::iterator) {
      for (Removal removal : Removal.values()) {
        for (Reclaim reclaim : Reclaim.values()) {
          all.add(Arguments.of(grace, removal, reclaim));
        }
      }
    }
    return all.stream();
  }

  private static WriterOptions.Builder options(long graceMillis, Reclaim reclaim) {
    return WriterOptions.builder()
        .codec(Codec.LZ4)
        .gracePeriodMillis(graceMillis)
        .reclaimRatio(reclaim == Reclaim.AUTOMATIC ? 0.5 : 2); // 2: never automatically
  }

  /**
   * Delete, reclaim; then, in turn, a writer that only opens (recovery on its own), an add, a dead
   * writer's part with its lock broken, and another delete followed by an add: after each, the
   * archive is the model.
   */
  @ParameterizedTest(name = "grace {0} ms, remove {1}, reclaim {2}")
  @MethodSource("orders")
  void deletedEntriesNeverComeBack(long graceMillis, Removal removal, Reclaim reclaim)
      throws Exception {
    WriterOptions options = options(graceMillis, reclaim).build();
    Storage storage = newStorage("d-" + graceMillis + "-" + removal + "-" + reclaim + ".hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(40, 27);
    TestArchives.write(storage, model, options, 2);

    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      if (removal == Removal.ALL_BY_PREFIX) {
        writer.deletePrefix("");
        model.clear();
      } else {
        for (String name : new ArrayList<>(model.keySet()).subList(0, 30)) {
          writer.delete(name);
          model.remove(name);
        }
      }
      writer.commit();
      if (reclaim == Reclaim.EXPLICIT) {
        writer.compact(true);
      }
    }
    assertModel(storage, model, "after the delete");

    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      assertEquals(0, writer.recovery().entriesRecovered(), "recovery on its own");
    }
    assertModel(storage, model, "after a writer only opened");

    add(storage, options, model, "added/one");
    assertModel(storage, model, "after an add");

    TreeMap<String, byte[]> dead = leaveDeadWriterPart(storage, options);
    WriterOptions breakLock = options(graceMillis, reclaim).breakLock(true).build();
    try (ArchiveWriter writer = ArchiveWriter.open(storage, breakLock)) {
      assertEquals(dead.size(), writer.recovery().entriesRecovered(), "the dead writer's entries");
    }
    model.putAll(dead);
    assertModel(storage, model, "after recovering a dead writer's part");

    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      writer.deletePrefix("dead/");
      writer.commit();
    }
    model.keySet().removeIf(name -> name.startsWith("dead/"));
    add(storage, options, model, "added/two");
    assertModel(storage, model, "after a second delete and an add");
  }

  /**
   * A cleaner that fails part-way (a crash, a refused delete) never leaves a dropped part without
   * the manifest naming it: the files go before the manifests, so the next writer does not take the
   * part for a dead writer's work.
   */
  @Test
  void aCleanerStoppedPartWayLeavesNoDeletedEntryToRecover() throws Exception {
    WriterOptions keep = options(60_000, Reclaim.NONE).build();
    Storage inner = newStorage("cleaner.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(20, 28);
    TestArchives.write(inner, model, keep, 1);
    try (ArchiveWriter writer = ArchiveWriter.open(inner, keep)) {
      writer.deletePrefix("");
      writer.commit();
      writer.compact(true); // the part is dropped, kept for the grace period
    }
    model.clear();
    Storage refusing =
        new ForwardingStorage(inner) {
          @Override
          public void delete(String name) throws IOException {
            if (FileNames.isPartFileName(name)) {
              throw new IOException(describe(name) + ": delete refused (test)");
            }
            super.delete(name);
          }
        };
    // No grace now: the cleaner of the next writer's open tries to delete everything old and is
    // stopped.
    WriterOptions now = options(0, Reclaim.NONE).build();
    assertThrows(IOException.class, () -> ArchiveWriter.open(refusing, now).close());
    assertModel(inner, model, "after the failed cleaning");
    add(inner, now, model, "added/after");
    assertModel(inner, model, "after the next writer");
  }

  /**
   * A part that every manifest naming it has let go of (a delete of everything, a reclaim, no grace
   * period, so even the old manifests are gone) and that then turns up again (a restore from a
   * backup or a trash) is not taken for a dead writer's work: its id is at or below the manifest's
   * part id mark (FORMAT.md "Manifest"). Without the mark nothing present told it from one.
   */
  @Test
  void aCommittedPartThatTurnsUpAgainIsNotRecovered() throws Exception {
    WriterOptions now = options(0, Reclaim.NONE).build();
    Storage storage = newStorage("restored.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(20, 30);
    TestArchives.write(storage, model, now, 1);
    byte[] part;
    try (ReadableFile file = storage.openRead(FileNames.partFileName(1), FileUse.ONCE)) {
      part = file.readFully(0, (int) file.length());
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, now)) {
      writer.deletePrefix("");
      writer.commit();
      writer.compact(true);
    }
    model.clear();
    assertTrue(
        storage.list().stream().noneMatch(f -> FileNames.isPartFileName(f.name())),
        "the reclaimed part is gone");
    write(storage, FileNames.partFileName(1), part);
    try (ArchiveWriter writer = ArchiveWriter.open(storage, now)) {
      assertEquals(0, writer.recovery().entriesRecovered());
    }
    assertModel(storage, model, "after the part turned up again");
    add(storage, now, model, "added/after");
    assertModel(storage, model, "after the next writer");
  }

  /**
   * A commit refused for its content (a name added twice, a delete of a missing name, a name that
   * would be a file and a directory) leaves nothing behind: no entry of it appears later through
   * the next writer's recovery.
   */
  @Test
  void aRefusedCommitLeavesNothingToRecover() throws Exception {
    WriterOptions options = options(60_000, Reclaim.NONE).build();
    Storage storage = newStorage("refused.hpf");
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    model.put("d/x", new byte[] {1});
    TestArchives.write(storage, model, options, 1);
    for (int refusal = 0; refusal < 3; refusal++) {
      try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
        for (int i = 0; i < 50; i++) {
          writer.add("batch/" + i, new byte[] {(byte) i}, EntryMetadata.of(0));
        }
        switch (refusal) {
          case 0 -> writer.add("batch/7", new byte[] {2}, EntryMetadata.of(0));
          case 1 -> writer.delete("missing");
          default -> writer.add("d/x/under", new byte[] {3}, EntryMetadata.of(0));
        }
        assertThrows(Exception.class, writer::commit, "refusal " + refusal);
      }
      try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
        assertEquals(0, writer.recovery().entriesRecovered(), "refusal " + refusal);
      }
      assertModel(storage, model, "after refusal " + refusal);
    }
  }

  private static void add(
      Storage storage, WriterOptions options, TreeMap<String, byte[]> model, String name)
      throws Exception {
    byte[] content = name.getBytes(StandardCharsets.UTF_8);
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      writer.add(name, content, EntryMetadata.of(0));
      writer.commit();
    }
    model.put(name, content);
  }

  /**
   * What a writer killed before its commit leaves: a part file above every id present, holding
   * complete entries, and its lock. The part's bytes are those of a real writer's part.
   */
  private TreeMap<String, byte[]> leaveDeadWriterPart(Storage storage, WriterOptions options)
      throws Exception {
    TreeMap<String, byte[]> dead = new TreeMap<>(ArchiveModel::compareUtf8);
    for (Map.Entry<String, byte[]> e : ArchiveModel.random(5, 29).entrySet()) {
      dead.put("dead/" + e.getKey(), e.getValue());
    }
    Storage source = TestArchives.write(newStorage("dead-source.hpf"), dead, options, 1);
    byte[] part;
    try (ReadableFile file = source.openRead(FileNames.partFileName(1), FileUse.ONCE)) {
      part = file.readFully(0, (int) file.length());
    }
    // As a writer does: above every part present and above the manifest's part id mark.
    List<StoredFile> listing = storage.list();
    int id = ManifestStore.readNewest(storage, listing).partIdMark();
    for (StoredFile f : listing) {
      id = Math.max(id, FileNames.partIdOf(f.name()));
    }
    write(storage, FileNames.partFileName(id + 1), part);
    write(
        storage,
        "hpf.lock",
        "host elsewhere, pid 1, since 2026-01-01T00:00:00Z".getBytes(StandardCharsets.UTF_8));
    return dead;
  }

  private static void write(Storage storage, String name, byte[] bytes) throws IOException {
    try (AppendableFile file = storage.create(name, FileUse.ONCE)) {
      file.write(bytes);
      file.sync();
    }
  }

  private static void assertModel(Storage storage, TreeMap<String, byte[]> model, String when)
      throws Exception {
    try (ArchiveReader reader = ArchiveReader.openAlone(storage)) {
      assertMatchesModel(reader, model);
    } catch (AssertionError e) {
      throw new AssertionError(when + ": " + e.getMessage(), e);
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> when + ": verify: " + report.problems());
  }
}
