package io.hpf.internal.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.Generation;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.SegmentDirectory;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestCodecTest {
  @Test
  void directoriesWithEmptyAndUnevenLeavesRoundTrip() throws Exception {
    // Depth 3: bucket 0 covers 000-011 (depth 1), 100 empty, 101 bucket 1 (depth 3),
    // 110-111 empty (depth 2).
    List<BucketDescriptor> buckets =
        List.of(
            new BucketDescriptor(0, 1, 10, 100, 428, 793),
            new BucketDescriptor(1, 3, 2, 90, 162, 1221));
    int[] pointers = {0, 0, 0, 0, -1, 1, -1, -1};
    // Segment file 1: header, catalog [16, 793), buckets, the dictionary [1383, 2383), footer.
    Manifest m =
        manifest(
            List.of(new Manifest.DictionaryRef(1, 1000, 1, 1383)),
            new Manifest.SegmentRef(
                1, 12, 0, 777, new SegmentDirectory(3, buckets, pointers), 2391));
    Manifest back = ManifestCodec.decode("m", ManifestCodec.encode(m));
    assertEquals(m.generation(), back.generation());
    assertEquals(m.operation(), back.operation());
    assertEquals(m.parts(), back.parts());
    assertEquals(m.dictionaries(), back.dictionaries());
    assertEquals(m.history(), back.history());
    assertEquals(new Manifest.IdMarks(4, 9), back.idMarks());
    assertEquals(12, back.liveEntries());
    assertEquals(4000, back.liveEntryBytes());
    SegmentDirectory dir = back.segments().get(0).directory();
    assertEquals(buckets, dir.buckets());
    assertArrayEquals(pointers, dir.pointers());
    assertSameSegments(m, back);
  }

  /** Segments equal but for the directory's pointer arrays, which records compare by identity. */
  private static void assertSameSegments(Manifest expected, Manifest actual) {
    assertEquals(expected.segments().size(), actual.segments().size());
    for (int i = 0; i < expected.segments().size(); i++) {
      Manifest.SegmentRef e = expected.segments().get(i);
      Manifest.SegmentRef a = actual.segments().get(i);
      assertEquals(
          List.of(e.segmentId(), e.entryCount(), e.tombstoneCount(), e.catalogLength()),
          List.of(a.segmentId(), a.entryCount(), a.tombstoneCount(), a.catalogLength()));
      assertEquals(e.fileLength(), a.fileLength());
      assertEquals(e.directory().buckets(), a.directory().buckets());
      assertArrayEquals(e.directory().pointers(), a.directory().pointers());
    }
  }

  private static Manifest manifest(
      List<Manifest.DictionaryRef> dictionaries, Manifest.SegmentRef... segments) {
    return new Manifest(
        7,
        123,
        "add 12 entries",
        64,
        new ArchiveSettings(Codec.LZ4, 1024, 300, 7),
        12,
        4000,
        dictionaries,
        List.of(new Generation.Part(1, 5000)),
        List.of(segments),
        List.of(
            new Generation.Change(6, 100, "create 0 entries", 0),
            new Generation.Change(7, 123, "add 12 entries", 12)),
        new Manifest.IdMarks(4, 9));
  }

  private static SegmentDirectory oneBucket(long length, long offset) {
    return new SegmentDirectory(
        0, List.of(new BucketDescriptor(0, 0, 3, 80, length, offset)), new int[] {0});
  }

  @Test
  void segmentsOfSeparateFilesAndOfSegmentFilesShareAManifest() throws Exception {
    // An archive of version 3 that a version 4 writer added to: its old segment and dictionary
    // stay in their own files (length 0 and segment 0 say so).
    Manifest m =
        manifest(
            List.of(Manifest.DictionaryRef.ownFile(1, 500)),
            new Manifest.SegmentRef(1, 3, 0, 300, oneBucket(184, 0), 0),
            new Manifest.SegmentRef(2, 3, 0, 300, oneBucket(184, 316), 508));
    Manifest back = ManifestCodec.decode("m", ManifestCodec.encode(m));
    assertSameSegments(m, back);
    assertEquals(m.dictionaries(), back.dictionaries());
    assertFalse(back.segments().get(0).inSegmentFile());
    assertTrue(back.segments().get(1).inSegmentFile());
  }

  @Test
  void sectionsOutsideTheirSegmentFileAreRefusedNamingThem() {
    Manifest.SegmentRef fits = new Manifest.SegmentRef(1, 3, 0, 300, oneBucket(184, 316), 508);
    Manifest[] bad = {
      manifest(List.of(), new Manifest.SegmentRef(1, 3, 0, 300, oneBucket(184, 400), 508)),
      manifest(List.of(), new Manifest.SegmentRef(1, 3, 0, 600, oneBucket(184, 316), 508)),
      manifest(List.of(new Manifest.DictionaryRef(1, 300, 1, 300)), fits),
      manifest(List.of(new Manifest.DictionaryRef(2, 10, 9, 16)), fits),
    };
    String[] expected = {
      "bucket 0 at offset 400 of 184 bytes does not fit",
      "catalog of 600 bytes does not fit its file of 508",
      "dictionary 1 at offset 300 of segment 1 does not fit its file",
      "dictionary 2 at offset 16 of segment 9 does not fit any segment file",
    };
    for (int i = 0; i < bad.length; i++) {
      byte[] encoded = ManifestCodec.encode(bad[i]);
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> ManifestCodec.decode("m", encoded));
      assertTrue(e.getMessage().contains(expected[i]), e.getMessage());
    }
  }

  /**
   * A directory the size of a 100M-entry archive's and deeper (4,096 pointers, buckets of mixed
   * depths, empty leaves), read back from the manifest's table as the writer described it.
   */
  @Test
  void aLargeDirectoryRoundTripsBucketByBucket() throws Exception {
    java.util.SplittableRandom random = new java.util.SplittableRandom(11);
    int g = 12;
    int[] pointers = new int[1 << g];
    List<BucketDescriptor> buckets = new java.util.ArrayList<>();
    long offset = 16 + 5000;
    for (int p = 0; p < pointers.length; ) {
      int depth = g - random.nextInt(3); // spans of 1, 2 or 4 pointers, aligned
      while (p % (1 << (g - depth)) != 0) {
        depth++;
      }
      int span = 1 << (g - depth);
      int bucket = -1;
      if (random.nextInt(10) != 0) {
        long length = 100L + random.nextInt(100_000);
        bucket = buckets.size();
        buckets.add(
            new BucketDescriptor(
                bucket, depth, random.nextInt(65_536), 40 + random.nextInt(9000), length, offset));
        offset += length;
      }
      java.util.Arrays.fill(pointers, p, p + span, bucket);
      p += span;
    }
    SegmentDirectory written = new SegmentDirectory(g, buckets, pointers);
    Manifest m = manifest(List.of(), new Manifest.SegmentRef(1, 100, 0, 5000, written, offset + 8));
    SegmentDirectory read =
        ManifestCodec.decode("m", ManifestCodec.encode(m)).segments().get(0).directory();
    assertEquals(buckets.size(), read.bucketCount());
    for (int b = 0; b < buckets.size(); b++) {
      assertEquals(buckets.get(b), read.bucket(b));
      assertEquals(buckets.get(b).localDepth(), read.localDepth(b));
    }
    assertArrayEquals(pointers, read.pointers());
    assertEquals(written, read);
    for (int k = 0; k < 1000; k++) {
      long hash = random.nextLong();
      assertEquals(pointers[(int) (hash >>> (64 - g))], read.bucketFor(hash));
    }
  }

  @Test
  void craftedDirectoriesAreRefusedNamingWhatIsWrong() throws Exception {
    // Depth 1: bucket 0x1234 (local depth 1) for top bit 0, bucket 0x5678 for top bit 1.
    List<BucketDescriptor> buckets =
        List.of(
            new BucketDescriptor(0x1234, 1, 3, 80, 184, 316),
            new BucketDescriptor(0x5678, 1, 3, 80, 184, 500));
    byte[] encoded =
        ManifestCodec.encode(
            manifest(
                List.of(),
                new Manifest.SegmentRef(
                    1, 6, 0, 300, new SegmentDirectory(1, buckets, new int[] {0, 1}), 700)));
    int table = indexOf(encoded, new byte[] {0x34, 0x12, 0, 0, 1}); // the first descriptor
    int leaves = table + 2 * SegmentDirectory.DESCRIPTOR_BYTES + 4; // after the leaf count
    int[][] changes = { // {at, bytes...}
      {table + 3, 0x80}, // bucket number 2^31 + 0x1234
      {table + 8, 0x80}, // key count over 2^31
      {table + 12, 0xFF}, // meta length over 2^31
      {table + 4, 2}, // local depth 2 in a directory of depth 1
      {leaves + 1, 7}, // a leaf naming bucket 7 of 2
      {leaves, 2}, // a leaf of depth 2: bucket 0 is of depth 1
      {table - 4, 0xFF, 0xFF, 0xFF, 0x0F}, // 2^28 descriptors
      {leaves - 4, 1}, // one leaf: half the pointers
    };
    String[] expected = {
      "bucket descriptor 0 has a number or count over 2^31",
      "bucket descriptor 0 has a number or count over 2^31",
      "bucket descriptor 1 has a number or count over 2^31",
      "bucket 4660 local depth 2 > global 1",
      "directory leaf (depth 1, bucket 7) does not fit",
      "directory leaf (depth 2, bucket 0) does not fit",
      "268435455 bucket descriptors need 7784628195 bytes",
      "directory leaves cover 1 of 2 pointers",
    };
    for (int i = 0; i < changes.length; i++) {
      byte[] bad = encoded.clone();
      for (int k = 1; k < changes[i].length; k++) {
        bad[changes[i][0] + k - 1] = (byte) changes[i][k];
      }
      if (i == 2) { // the second descriptor's meta length instead
        bad[table + 12] = encoded[table + 12];
        bad[table + SegmentDirectory.DESCRIPTOR_BYTES + 12] = (byte) 0xFF;
      }
      resealFooter(bad);
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> ManifestCodec.decode("m", bad));
      assertTrue(e.getMessage().contains(expected[i]), i + ": " + e.getMessage());
    }
  }

  private static int indexOf(byte[] bytes, byte[] pattern) {
    for (int i = 0; i + pattern.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + pattern.length, pattern, 0, pattern.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  @Test
  void writerSettingsRoundTripAndImpossibleOnesAreRefused() throws Exception {
    Manifest m =
        manifest(List.of(), new Manifest.SegmentRef(1, 3, 0, 300, oneBucket(184, 316), 508));
    byte[] encoded = ManifestCodec.encode(m);
    assertEquals(
        new ArchiveSettings(Codec.LZ4, 1024, 300, 7),
        ManifestCodec.decode("m", encoded).writerSettings());
    // The settings follow the bucket capacity: name hash (1), reserved (3), capacity (4) after
    // the header, generation, time and operation.
    int at = 16 + 8 + 8 + 2 + "add 12 entries".length() + 1 + 3 + 4;
    assertEquals(Codec.LZ4.id(), encoded[at]);
    assertEquals(7, encoded[at + 9], "the zstd level follows the group entry size");
    String[] expected = {
      "unknown codec 9",
      "writer settings: group size",
      "writer settings: group size",
      "writer settings: zstd level must be 1 to 19: 0",
      "writer settings: zstd level must be 1 to 19: 20"
    };
    int[][] changes = {
      {at, 9},
      {at + 1, 0xFF, 0xFF, 0xFF, 0x7F},
      {at + 5, 0x01, 0x08, 0, 0},
      {at + 9, 0},
      {at + 9, 20}
    };
    for (int i = 0; i < changes.length; i++) {
      byte[] bad = encoded.clone();
      for (int k = 1; k < changes[i].length; k++) {
        bad[changes[i][0] + k - 1] = (byte) changes[i][k];
      }
      resealFooter(bad);
      CorruptArchiveException e =
          assertThrows(CorruptArchiveException.class, () -> ManifestCodec.decode("m", bad));
      assertTrue(e.getMessage().contains(expected[i]), e.getMessage());
    }
  }

  /** A valid footer again after bytes were changed: what a crafted manifest would carry. */
  private static void resealFooter(byte[] bytes) {
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(bytes, 0, bytes.length - 8);
    int value = (int) crc.getValue();
    for (int i = 0; i < 4; i++) {
      bytes[bytes.length - 4 + i] = (byte) (value >>> (8 * i));
    }
  }
}
