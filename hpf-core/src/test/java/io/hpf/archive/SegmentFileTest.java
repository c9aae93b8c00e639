package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.Section;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segment files (format version 4): a segment's catalog, buckets and dictionaries in one file; the
 * dictionaries follow the segments that compaction keeps; archives of older versions take new
 * segments in the new layout and move into it when compacted.
 */
class SegmentFileTest {
  @TempDir Path temp;

  private static final Map<String, byte[]> MODEL = GoldenArchives.model();

  private static WriterOptions zstdWithDictionary() {
    return WriterOptions.builder()
        .codec(Codec.ZSTD)
        .dictionary(GoldenArchives.options("zstd-dictionary.hpf").dictionary())
        .bucketCapacity(16)
        .maxSegments(100) // no merge but the test's own
        .gracePeriodMillis(0)
        .build();
  }

  private static TreeSet<String> kinds(Path dir) throws Exception {
    TreeSet<String> kinds = new TreeSet<>();
    for (StoredFile f : LocalStorage.open(dir).list()) {
      kinds.add(f.name().substring(f.name().lastIndexOf('.')));
    }
    return kinds;
  }

  private static void assertReadsAll(Path dir, Map<String, byte[]> expected) throws Exception {
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertEquals(expected.size(), reader.entryCount());
      for (Map.Entry<String, byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
  }

  @Test
  void compactionMovesTheDictionaryOutOfTheSegmentFileItDrops() throws Exception {
    Path dir = temp.resolve("a.hpf");
    List<Map.Entry<String, byte[]>> entries = new ArrayList<>(MODEL.entrySet());
    try (ArchiveWriter writer =
        ArchiveWriter.create(LocalStorage.createDirectories(dir), zstdWithDictionary())) {
      for (int i = 0; i < entries.size(); i++) {
        writer.add(entries.get(i).getKey(), entries.get(i).getValue(), EntryMetadata.of(1000));
        if (i % 20 == 19) {
          writer.commit(); // a segment each
        }
      }
      writer.commit();
      Manifest before = (Manifest) writer.manifest();
      assertTrue(before.segments().size() >= 3, before.segments().size() + " segments");
      assertEquals(1, before.dictionaries().get(0).segmentId());

      CompactionResult merged = writer.compact(false);
      Manifest after = (Manifest) merged.manifest();
      assertEquals(1, after.segments().size());
      int newId = after.segments().get(0).segmentId();
      Manifest.DictionaryRef moved = after.dictionaries().get(0);
      assertEquals(newId, moved.segmentId(), "the dictionary moved into the merged segment");
      assertEquals(before.dictionaries().get(0).length(), moved.length());
    }
    assertEquals(
        List.of(FileNames.segmentFileName(lastSegment(dir))),
        Stream.of(dir.toFile().list()).filter(n -> n.endsWith(".hpfs")).toList(),
        "the dropped segments' files are gone, the dictionary's with them");
    assertReadsAll(dir, MODEL);
  }

  private static int lastSegment(Path dir) throws Exception {
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      return ((Manifest) reader.manifest()).segments().get(0).segmentId();
    }
  }

  @Test
  void aVersionThreeArchiveTakesSegmentFilesAndMovesIntoThemWhenCompacted() throws Exception {
    Path dir = temp.resolve("v3.hpf");
    GoldenArchiveTest.copyGolden("v3", "zstd-dictionary.hpf", dir);
    assertEquals(new TreeSet<>(List.of(".hpfc", ".hpfd", ".hpfm", ".hpfp", ".hpfx")), kinds(dir));
    Map<String, byte[]> all = new java.util.TreeMap<>(MODEL);
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), zstdWithDictionary())) {
      for (Map.Entry<String, byte[]> e : MODEL.entrySet()) {
        writer.add("new/" + e.getKey(), e.getValue(), EntryMetadata.of(2000));
        all.put("new/" + e.getKey(), e.getValue());
      }
      Manifest mixed = (Manifest) writer.commit();
      assertFalse(mixed.segments().get(0).inSegmentFile());
      assertTrue(mixed.segments().get(1).inSegmentFile());
      assertFalse(mixed.dictionaries().get(0).inSegmentFile(), "an add leaves it where it is");
    }
    assertReadsAll(dir, all);
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), zstdWithDictionary())) {
      Manifest compacted = (Manifest) writer.compact(false).manifest();
      assertTrue(compacted.dictionaries().get(0).inSegmentFile(), "compaction moves it in");
    }
    assertEquals(new TreeSet<>(List.of(".hpfm", ".hpfp", ".hpfs")), kinds(dir));
    assertReadsAll(dir, all);
  }

  @Test
  void damageInsideASectionIsNamedWithItsSegmentFileAndPlace() throws Exception {
    Path dir = temp.resolve("d.hpf");
    try (ArchiveWriter writer =
        ArchiveWriter.create(LocalStorage.createDirectories(dir), zstdWithDictionary())) {
      for (Map.Entry<String, byte[]> e : MODEL.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(1000));
      }
      writer.commit();
    }
    Manifest m;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      m = (Manifest) reader.manifest();
    }
    Manifest.SegmentRef segment = m.segments().get(0);
    Section[] sections = {
      Section.catalog(segment),
      Section.bucket(segment, segment.directory().buckets().get(0)),
      Section.dictionary(m.dictionaries().get(0))
    };
    for (Section section : sections) {
      Path copy = temp.resolve("copy-" + section.label().replace(' ', '-') + ".hpf");
      Files.createDirectories(copy);
      for (String name : dir.toFile().list()) {
        Files.copy(dir.resolve(name), copy.resolve(name));
      }
      // A byte in the middle of the section: its own checksum and the file's catch it.
      try (FileChannel ch =
          FileChannel.open(copy.resolve(section.fileName()), StandardOpenOption.WRITE)) {
        long at = section.offset() + section.length() / 2;
        ByteBuffer b = ByteBuffer.allocate(1);
        FileChannel.open(copy.resolve(section.fileName())).read(b, at);
        ch.write(ByteBuffer.wrap(new byte[] {(byte) ~b.get(0)}), at);
      }
      VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(copy), ProgressListener.NONE);
      String where = section.fileName() + " (" + section.label() + " from byte " + section.offset();
      assertTrue(
          report.problems().stream().anyMatch(p -> p.message().contains(where)),
          where + " not named in " + report.problems());
    }
  }
}
