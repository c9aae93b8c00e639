package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Archives written by released format versions still read, byte for byte. */
class GoldenArchiveTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "v1/lz4.hpf",
        "v1/zstd-dictionary.hpf",
        "v1/none.hpf",
        "v2/lz4.hpf",
        "v2/zstd-dictionary.hpf",
        "v2/none.hpf",
        "v2/none-aligned-1k.hpf",
        "v3/lz4.hpf",
        "v3/zstd-dictionary.hpf",
        "v3/none.hpf",
        "v3/none-aligned-1k.hpf",
        "v3/lz4-small-groups.hpf",
        "v4/lz4.hpf",
        "v4/zstd-dictionary.hpf",
        "v4/none.hpf",
        "v4/none-aligned-1k.hpf",
        "v4/lz4-small-groups.hpf",
        "v4/zstd-two-commits.hpf",
        "v5/lz4.hpf",
        "v5/zstd-dictionary.hpf",
        "v5/none.hpf",
        "v5/none-aligned-1k.hpf",
        "v5/lz4-small-groups.hpf",
        "v5/zstd-two-commits.hpf",
        "v5/lz4-joined-parts.hpf",
        "v6/lz4.hpf",
        "v6/zstd-dictionary.hpf",
        "v6/none.hpf",
        "v6/none-aligned-1k.hpf",
        "v6/lz4-small-groups.hpf",
        "v6/zstd-two-commits.hpf",
        "v6/zstd-level-10-solid.hpf",
        "v6/lz4-pilot-dictionary.hpf",
        "v7/lz4.hpf",
        "v7/zstd-dictionary.hpf",
        "v7/none.hpf",
        "v7/none-aligned-1k.hpf",
        "v7/lz4-small-groups.hpf",
        "v7/zstd-two-commits.hpf",
        "v7/zstd-level-10-solid.hpf",
        "v7/lz4-pilot-dictionary.hpf",
        "v7/chunked.hpf",
        "v7/chunked-lz4-4k.hpf",
        "v7/chunked-zstd-1m.hpf"
      })
  void goldenArchiveReads(String archive) throws Exception {
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve(archive));
    Map<String, byte[]> model = new java.util.LinkedHashMap<>(GoldenArchives.model());
    if (archive.startsWith("v7/chunked")) {
      model.putAll(GoldenArchives.chunkedModel());
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(model.size(), reader.entryCount());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        EntryInfo info = reader.stat(e.getKey());
        EntryMetadata expected = GoldenArchives.metadata(e.getKey());
        assertEquals(expected.mtimeMillis(), info.mtimeMillis());
        assertEquals(expected.mode(), info.mode());
        assertEquals(expected.attributes(), info.attributes());
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
  }

  /**
   * Every bucket of {@code lz4-pilot-dictionary.hpf} stores its pilots through a dictionary
   * (perfect-hash encoding 2: FORMAT.md "Perfect hash"), which writers choose only for buckets far
   * larger than a golden archive's; the others' use encoding 1. Both are read above.
   */
  @Test
  void theGoldenArchivesHoldBothPerfectHashEncodings() throws Exception {
    assertEquals(Set.of(2), encodings("v6/lz4-pilot-dictionary.hpf"));
    assertEquals(Set.of(1), encodings("v6/lz4.hpf"));
  }

  /** The encoding byte of each non-empty bucket's perfect hash (bucket offset + 36 + 12). */
  private static Set<Integer> encodings(String archive) throws Exception {
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve(archive));
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    Set<Integer> found = new HashSet<>();
    for (Manifest.SegmentRef segment : m.segments()) {
      byte[] file =
          java.nio.file.Files.readAllBytes(
              GOLDEN.resolve(archive).resolve(FileNames.segmentFileName(segment.segmentId())));
      for (io.hpf.internal.index.BucketDescriptor b : segment.directory().buckets()) {
        if (b.keyCount() > 0) {
          found.add(file[(int) b.offset() + 36 + 12] & 0xFF);
        }
      }
    }
    return found;
  }

  /** Version 3's archives with a codec hold groups, as many as their group size makes. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "v3/lz4.hpf:1",
        "v3/zstd-dictionary.hpf:1",
        "v3/lz4-small-groups.hpf:3",
        "v4/lz4-small-groups.hpf:3",
        "v6/zstd-level-10-solid.hpf:1"
      })
  void versionThreeArchivesHoldGroups(String archiveAndLeast) throws Exception {
    String[] a = archiveAndLeast.split(":");
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(GOLDEN.resolve(a[0])))) {
      Set<Long> groups = new HashSet<>();
      long members = 0;
      for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); ) {
        EntryInfo row = it.next();
        if (row.inGroup()) {
          groups.add(row.offset());
          members++;
          assertEquals(row, reader.stat(row.name()), "the index finds the catalog's member");
        }
      }
      assertTrue(groups.size() >= Integer.parseInt(a[1]), groups.size() + " groups");
      assertTrue(members > groups.size(), members + " members in " + groups.size() + " groups");
    }
  }

  /**
   * Version 4 keeps each segment's catalog, buckets and dictionaries in one segment file: the
   * archive is its manifests, parts and segment files, and nothing else.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "v4/lz4.hpf:1",
        "v4/zstd-dictionary.hpf:1",
        "v4/zstd-two-commits.hpf:2",
        "v5/zstd-two-commits.hpf:2"
      })
  void versionFourArchivesAreManifestsPartsAndSegmentFiles(String archiveAndSegments)
      throws Exception {
    String[] a = archiveAndSegments.split(":");
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve(a[0]));
    Set<FileNames.Kind> kinds = new HashSet<>();
    int segmentFiles = 0;
    for (StoredFile f : storage.list()) {
      kinds.add(FileNames.kindOf(f.name()));
      segmentFiles += FileNames.kindOf(f.name()) == FileNames.Kind.SEGMENT ? 1 : 0;
    }
    assertEquals(
        Set.of(FileNames.Kind.MANIFEST, FileNames.Kind.PART, FileNames.Kind.SEGMENT), kinds);
    assertEquals(Integer.parseInt(a[1]), segmentFiles);
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    for (Manifest.DictionaryRef d : m.dictionaries()) {
      assertEquals(1, d.segmentId(), "the first commit's segment file holds the dictionary");
    }
    assertEquals(a[0].contains("zstd"), !m.dictionaries().isEmpty());
  }

  /**
   * Version 5's manifests record how their writer stored new entries, version 6's the zstd level
   * too (version 5's read as level 3, what their writers used); older ones record nothing.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "v6/zstd-level-10-solid.hpf:zstd:262144:65536:10",
        "v6/zstd-dictionary.hpf:zstd:32768:4096:3",
        "v6/lz4-small-groups.hpf:lz4:1024:512:3",
        "v5/lz4.hpf:lz4:32768:4096:3",
        "v5/zstd-dictionary.hpf:zstd:32768:4096:3",
        "v5/none.hpf:none:32768:4096:3",
        "v5/lz4-small-groups.hpf:lz4:1024:512:3",
        "v4/lz4.hpf::::"
      })
  void versionFiveManifestsRecordTheWriterSettings(String archiveAndSettings) throws Exception {
    String[] a = archiveAndSettings.split(":", -1);
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve(a[0]));
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    if (a[1].isEmpty()) {
      assertEquals(null, m.writerSettings());
      return;
    }
    assertEquals(
        new io.hpf.archive.model.ArchiveSettings(
            io.hpf.archive.model.Codec.parse(a[1]),
            Integer.parseInt(a[2]),
            Integer.parseInt(a[3]),
            Integer.parseInt(a[4])),
        m.writerSettings());
    assertEquals(16, m.bucketCapacity());
  }

  /**
   * Version 7 stores entries over 1 MiB in chunks (FORMAT.md "Chunked content"): the golden
   * archives of chunked content hold one compressed (zstd with the archive's dictionary, lz4, zstd
   * without one) and one raw, in chunks of 256 KiB, 4 KiB and 1 MiB, and every offset reads as the
   * model; every version-7 manifest records the id marks.
   */
  @ParameterizedTest
  @ValueSource(strings = {"chunked.hpf", "chunked-lz4-4k.hpf", "chunked-zstd-1m.hpf"})
  void versionSevenStoresLargeEntriesInChunksAndRecordsIdMarks(String archive) throws Exception {
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve("v7").resolve(archive));
    Manifest m = ManifestStore.readNewest(storage, storage.list());
    assertEquals(new Manifest.IdMarks(1, 1), m.idMarks());
    LocalStorage v6 = LocalStorage.open(GOLDEN.resolve("v6/lz4.hpf"));
    assertEquals(null, ManifestStore.readNewest(v6, v6.list()).idMarks());
    int shift = GoldenArchives.chunkShift(archive);
    io.hpf.archive.model.Codec compressed =
        archive.contains("lz4") ? io.hpf.archive.model.Codec.LZ4 : io.hpf.archive.model.Codec.ZSTD;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (Map.Entry<String, byte[]> e : GoldenArchives.chunkedModel().entrySet()) {
        EntryInfo row = reader.stat(e.getKey());
        assertEquals(
            e.getKey().contains("streamed") ? io.hpf.archive.model.Codec.NONE : compressed,
            row.codec());
        assertEquals(shift, chunkShiftOf(storage, row), e.getKey());
        int n = e.getValue().length;
        for (long from : new long[] {65_535, 65_536 * 7 + 3, n - 100}) {
          try (java.io.InputStream in = reader.openStream(row, from)) {
            assertArrayEquals(
                java.util.Arrays.copyOfRange(e.getValue(), (int) from, (int) from + 100),
                in.readNBytes(100));
          }
        }
        long chunks = ((n - 1L) >> shift) + 1;
        assertTrue(row.storedLength() > chunks * 12L, "a chunk table of a slot per chunk");
      }
    }
  }

  /** The chunk size field (u16 at offset 46) of the header of the entry a row places. */
  private static int chunkShiftOf(LocalStorage storage, EntryInfo row) throws java.io.IOException {
    byte[] header =
        java.nio.file.Files.readAllBytes(
            storage.directory().resolve(ArchiveFormat.partFileName(row.partId())));
    int at = (int) row.offset() + 46;
    return (header[at] & 0xFF) | (header[at + 1] & 0xFF) << 8;
  }

  /** Copies a golden archive to {@code target}, for a test that changes it. */
  static void copyGolden(String version, String archive, Path target) throws java.io.IOException {
    java.nio.file.Files.createDirectories(target);
    try (java.util.stream.Stream<Path> files =
        java.nio.file.Files.list(GOLDEN.resolve(version).resolve(archive))) {
      for (Path f : files.toList()) {
        java.nio.file.Files.copy(f, target.resolve(f.getFileName()));
      }
    }
  }
}
