package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part file cut short or missing is a damaged part, not a damaged archive: the archive opens and
 * lists, the entries of the other parts and those before the cut read, those past it are reported
 * lost naming the cut; verify reports the part; a writer opens, says what recovery cannot do, and
 * the entries it lost can be removed.
 */
class DamagedPartsTest {
  @TempDir Path dir;

  /** {@code model} written in two commits, so in two part files; returns its rows by part. */
  static Map<Integer, List<EntryInfo>> writeInTwoParts(Path archive, TreeMap<String, byte[]> model)
      throws Exception {
    TreeMap<String, byte[]> first = new TreeMap<>(model.comparator());
    int half = model.size() / 2;
    for (String name : model.keySet()) {
      if (first.size() < half) {
        first.put(name, model.get(name));
      }
    }
    TestArchives.write(archive, first, WriterOptions.builder().groups(0, 0).build(), 1);
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        if (!first.containsKey(e.getKey())) {
          w.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
        }
      }
      w.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      return byPart(reader);
    }
  }

  /** Rows of {@code reader} by part id, in place order. */
  static Map<Integer, List<EntryInfo>> byPart(ArchiveReader reader) throws Exception {
    Map<Integer, List<EntryInfo>> parts = new TreeMap<>();
    for (EntryInfo row : reader.entriesInPartOrder()) {
      parts.computeIfAbsent(row.partId(), p -> new ArrayList<>()).add(row);
    }
    return parts;
  }

  @Test
  void aPartCutShortLosesOnlyTheEntriesPastTheCut() throws Exception {
    Path archive = dir.resolve("a.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(200, 21);
    Map<Integer, List<EntryInfo>> parts = writeInTwoParts(archive, model);
    assertEquals(2, parts.size());
    int cutPart = parts.keySet().iterator().next();
    List<EntryInfo> rows = parts.get(cutPart);
    EntryInfo firstLost = rows.get(rows.size() / 2);
    long cut = firstLost.offset() + firstLost.entryLength() / 2;
    try (RandomAccessFile f =
        new RandomAccessFile(archive.resolve(FileNames.partFileName(cutPart)).toFile(), "rw")) {
      f.setLength(cut);
    }
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      List<String> listed = new ArrayList<>();
      reader.list("").forEachRemaining(e -> listed.add(e.name()));
      assertEquals(new ArrayList<>(model.keySet()), listed);
      int lost = 0;
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        EntryInfo row = rowOf(parts, e.getKey());
        if (row.partId() == cutPart && row.offset() + row.entryLength() > cut) {
          lost++;
          CorruptArchiveException x =
              assertThrows(CorruptArchiveException.class, () -> reader.get(e.getKey()));
          assertTrue(x.getMessage().contains("cut short at " + cut), x.getMessage());
          assertTrue(x.getMessage().contains(FileNames.partFileName(cutPart)), x.getMessage());
        } else {
          assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        }
      }
      assertEquals(rows.size() - rows.size() / 2, lost);
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE);
    assertFalse(report.problems().isEmpty());
    assertTrue(
        report.problems().stream()
            .anyMatch(p -> p.toString().contains(FileNames.partFileName(cutPart))),
        report.problems().toString());
    try (ArchiveWriter writer =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertEquals(1, writer.recovery().damagedParts());
      assertTrue(
          writer.recovery().notes().stream().anyMatch(n -> n.contains("cut short at " + cut)),
          writer.recovery().notes().toString());
    }
  }

  @Test
  void aMissingPartLosesOnlyItsEntries() throws Exception {
    Path archive = dir.resolve("b.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(100, 22);
    Map<Integer, List<EntryInfo>> parts = writeInTwoParts(archive, model);
    int gone = parts.keySet().iterator().next();
    Files.delete(archive.resolve(FileNames.partFileName(gone)));
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        if (rowOf(parts, e.getKey()).partId() == gone) {
          CorruptArchiveException x =
              assertThrows(CorruptArchiveException.class, () -> reader.get(e.getKey()));
          assertTrue(x.getMessage().contains("missing"), x.getMessage());
        } else {
          assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        }
      }
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertEquals(1, writer.recovery().damagedParts());
    }
  }

  static EntryInfo rowOf(Map<Integer, List<EntryInfo>> parts, String name) {
    return parts.values().stream()
        .flatMap(List::stream)
        .filter(r -> r.name().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
