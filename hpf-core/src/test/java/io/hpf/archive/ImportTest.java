package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.write.ImportMarker;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Imports (a job's commit): archives staged in subdirectories become entries in one generation;
 * names are checked before anything moves; an import that dies after moving parts in leaves nothing
 * visible to the next writer.
 */
class ImportTest {
  @TempDir Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private LocalStorage archive(Map<String, String> entries) throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(dir.resolve("a.hpf"));
    try (ArchiveWriter w = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      for (var e : entries.entrySet()) {
        w.add(e.getKey(), bytes(e.getValue()), EntryMetadata.of(0));
      }
      w.commit();
    }
    return storage;
  }

  private LocalStorage staged(String sub, Map<String, String> entries) throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(dir.resolve("a.hpf").resolve(sub));
    try (ArchiveWriter w = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      for (var e : entries.entrySet()) {
        w.add(e.getKey(), bytes(e.getValue()), EntryMetadata.of(0));
      }
      w.commit();
    }
    return storage;
  }

  private static TreeMap<String, String> contents(LocalStorage storage) throws Exception {
    TreeMap<String, String> out = new TreeMap<>();
    try (ArchiveReader r = ArchiveReader.open(storage)) {
      r.list("").forEachRemaining(e -> out.put(e.name(), null));
      for (String name : out.keySet()) {
        out.put(name, new String(r.get(name), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static Manifest generationOf(LocalStorage storage) throws Exception {
    try (ArchiveReader r = ArchiveReader.open(storage)) {
      return (Manifest) r.manifest();
    }
  }

  @Test
  void stagedArchivesBecomeEntriesInOneGeneration() throws Exception {
    LocalStorage a = archive(Map.of("x", "old"));
    LocalStorage t1 = staged("_stage/t1", Map.of("a", "1", "b", "2"));
    LocalStorage t2 = staged("_stage/t2", Map.of("c", "3"));
    long before = generationOf(a).generation();
    try (ArchiveReader r1 = ArchiveReader.open(t1);
        ArchiveReader r2 = ArchiveReader.open(t2);
        ArchiveWriter w = ArchiveWriter.open(a, WriterOptions.builder().build())) {
      w.commitImported(List.of("_stage/t1", "_stage/t2"), List.of(r1, r2), "import 3");
    }
    assertEquals(before + 1, generationOf(a).generation());
    assertEquals(Map.of("x", "old", "a", "1", "b", "2", "c", "3"), contents(a));
    assertFalse(Files.exists(a.directory().resolve(ImportMarker.FILE_NAME)));
    VerifyReport report = ArchiveVerifier.verify(a, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals("import 3", generationOf(a).operation());
  }

  @Test
  void aNameInTwoImportsIsRefusedBeforeAnythingMoves() throws Exception {
    LocalStorage a = archive(Map.of("x", "old"));
    LocalStorage t1 = staged("_stage/t1", Map.of("same", "1"));
    LocalStorage t2 = staged("_stage/t2", Map.of("same", "2"));
    try (ArchiveReader r1 = ArchiveReader.open(t1);
        ArchiveReader r2 = ArchiveReader.open(t2);
        ArchiveWriter w = ArchiveWriter.open(a, WriterOptions.builder().build())) {
      var e =
          assertThrows(
              NameConflictException.class,
              () -> w.commitImported(List.of("_stage/t1", "_stage/t2"), List.of(r1, r2), "x"));
      assertTrue(e.getMessage().contains("'same'"), e.getMessage());
    }
    assertEquals(Map.of("x", "old"), contents(a));
    assertTrue(Files.exists(t1.directory().resolve(FileNames.partFileName(1))), "not moved");
  }

  /** Moves t1's part in as part 2 without committing, as an import that died would leave it. */
  private void dieAfterMoving(LocalStorage a, boolean withMarker) throws Exception {
    staged("_stage/t1", Map.of("a", "1"));
    String target = FileNames.partFileName(2);
    if (withMarker) {
      ImportMarker.write(a, List.of(target));
    }
    a.moveIn("_stage/t1", FileNames.partFileName(1), target);
  }

  @Test
  void partsOfAnImportThatDiedAreDeletedNotRecovered() throws Exception {
    LocalStorage a = archive(Map.of("x", "old"));
    dieAfterMoving(a, true);
    try (ArchiveWriter w = ArchiveWriter.open(a, WriterOptions.builder().build())) {
      assertEquals(0, w.recovery().entriesRecovered());
    }
    assertEquals(Map.of("x", "old"), contents(a));
    assertFalse(Files.exists(a.directory().resolve(FileNames.partFileName(2))));
    assertFalse(Files.exists(a.directory().resolve(ImportMarker.FILE_NAME)));
  }

  @Test
  void withoutTheMarkerTheSamePartWouldBeRecovered() throws Exception {
    LocalStorage a = archive(Map.of("x", "old"));
    dieAfterMoving(a, false);
    try (ArchiveWriter w = ArchiveWriter.open(a, WriterOptions.builder().build())) {
      assertEquals(1, w.recovery().entriesRecovered());
    }
    assertArrayEquals(bytes("1"), bytes(contents(a).get("a")));
  }
}
