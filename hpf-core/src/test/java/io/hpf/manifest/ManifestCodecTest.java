package io.hpf.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpf.index.BucketDescriptor;
import io.hpf.index.SegmentDirectory;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestCodecTest {
  @Test
  void directoriesWithEmptyAndUnevenLeavesRoundTrip() throws Exception {
    // Depth 3: bucket 0 covers 000-011 (depth 1), 100 empty, 101 bucket 1 (depth 3),
    // 110-111 empty (depth 2).
    List<BucketDescriptor> buckets =
        List.of(new BucketDescriptor(0, 1, 10, 100, 428), new BucketDescriptor(1, 3, 2, 90, 162));
    int[] pointers = {0, 0, 0, 0, -1, 1, -1, -1};
    Manifest m =
        new Manifest(
            7,
            123,
            "add 12 entries",
            64,
            12,
            4000,
            List.of(new Manifest.DictionaryRef(1, 1000)),
            List.of(new Manifest.PartRef(1, 5000)),
            List.of(
                new Manifest.SegmentRef(1, 12, 0, 777, new SegmentDirectory(3, buckets, pointers))),
            List.of(
                new Manifest.HistoryEntry(6, 100, "create 0 entries", 0),
                new Manifest.HistoryEntry(7, 123, "add 12 entries", 12)));
    Manifest back = ManifestCodec.decode("m", ManifestCodec.encode(m));
    assertEquals(m.generation(), back.generation());
    assertEquals(m.operation(), back.operation());
    assertEquals(m.parts(), back.parts());
    assertEquals(m.dictionaries(), back.dictionaries());
    assertEquals(m.history(), back.history());
    assertEquals(12, back.liveEntries());
    assertEquals(4000, back.liveEntryBytes());
    SegmentDirectory dir = back.segments().get(0).directory();
    assertEquals(buckets, dir.buckets());
    assertArrayEquals(pointers, dir.pointers());
  }
}
