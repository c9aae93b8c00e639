package io.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.format.SegmentFileWriter;
import io.hpf.internal.io.FileSlice;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.FileUse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentIndexWriterTest {
  @TempDir Path temp;

  private static IndexInput input(String name, long nameHash, int serial) {
    return new IndexInput(
        name.getBytes(StandardCharsets.UTF_8),
        new IndexRecord(nameHash, 1, 16 + 100L * serial, 100));
  }

  private static IndexRecord lookup(
      LocalStorage storage, SegmentDirectory dir, String name, long nameHash, SlotHash slotHash)
      throws Exception {
    int b = dir.bucketFor(nameHash);
    if (b < 0) {
      return null;
    }
    BucketDescriptor d = dir.buckets().get(b);
    IndexBucket bucket =
        IndexBucket.load(
            "bucket",
            new FileSlice(
                storage.openRead(FileNames.segmentFileName(1), FileUse.INDEX),
                d.offset(),
                d.fileLength(),
                true),
            d,
            slotHash);
    return bucket.find(name.getBytes(StandardCharsets.UTF_8), nameHash);
  }

  /** Writes the buckets into segment file 1, as a segment's writer does after its catalog. */
  private static SegmentDirectory write(
      LocalStorage storage, List<IndexInput> inputs, int capacity, SlotHash slotHash)
      throws Exception {
    try (SegmentFileWriter out =
        new SegmentFileWriter(storage.create(FileNames.segmentFileName(1), FileUse.INDEX))) {
      SegmentDirectory dir = SegmentIndexWriter.write(out, inputs, capacity, slotHash);
      out.finish();
      return dir;
    }
  }

  @Test
  void namesWhoseSixtyFourBitHashesCollideAreBothFound() throws Exception {
    // Two different names given the same name hash, as a real XXH64 collision would.
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("a"));
    List<IndexInput> inputs = new ArrayList<>();
    long shared = 0x1234_5678_9abc_def0L;
    inputs.add(input("alpha", shared, 0));
    inputs.add(input("beta", shared, 1));
    for (int i = 0; i < 50; i++) {
      inputs.add(input("other-" + i, NameHash.of("other-" + i), i + 2));
    }
    SegmentDirectory dir = write(storage, inputs, 1000, SlotHash.XXH64);
    IndexRecord alpha = lookup(storage, dir, "alpha", shared, SlotHash.XXH64);
    IndexRecord beta = lookup(storage, dir, "beta", shared, SlotHash.XXH64);
    assertNotNull(alpha);
    assertNotNull(beta);
    assertEquals(16, alpha.offset());
    assertEquals(116, beta.offset());
  }

  @Test
  void slotHashCollisionsAreSeparatedByANewSeed() throws Exception {
    // A slot hash that collides for two names under seed 1 only.
    SlotHash weak =
        (name, seed) -> {
          String s = new String(name, StandardCharsets.UTF_8);
          if (seed == 1 && (s.equals("x") || s.equals("y"))) {
            return 42;
          }
          return NameHash.xxh64(name, seed);
        };
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("b"));
    List<IndexInput> inputs = List.of(input("x", 7, 0), input("y", 7, 1), input("z", 7, 2));
    SegmentDirectory dir = write(storage, inputs, 1000, weak);
    assertEquals(116, lookup(storage, dir, "y", 7, weak).offset());
    assertEquals(16, lookup(storage, dir, "x", 7, weak).offset());
    assertEquals(216, lookup(storage, dir, "z", 7, weak).offset());
  }

  @Test
  void trueDuplicateNamesAreRejectedByName() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("c"));
    List<IndexInput> inputs = List.of(input("same", 5, 0), input("same", 5, 1));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> write(storage, inputs, 1000, SlotHash.XXH64));
    assertTrue(e.getMessage().contains("'same'"), e.getMessage());
  }

  @Test
  void bucketsSplitByLeadingHashBitsAndMissesFindNothing() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("d"));
    List<IndexInput> inputs = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      inputs.add(input("n" + i, NameHash.of("n" + i), i));
    }
    SegmentDirectory dir = write(storage, inputs, 300, SlotHash.XXH64);
    assertTrue(dir.buckets().size() >= 5000 / 300, "buckets: " + dir.buckets().size());
    for (BucketDescriptor d : dir.buckets()) {
      assertTrue(d.keyCount() <= 300 && d.localDepth() <= dir.globalDepth());
    }
    for (int i = 0; i < 5000; i += 7) {
      IndexRecord r = lookup(storage, dir, "n" + i, NameHash.of("n" + i), SlotHash.XXH64);
      assertEquals(16 + 100L * i, r.offset());
    }
    int falsePositives = 0;
    for (int i = 0; i < 1000; i++) {
      if (lookup(storage, dir, "missing" + i, NameHash.of("missing" + i), SlotHash.XXH64) != null) {
        falsePositives++;
      }
    }
    assertEquals(0, falsePositives);
    assertNotEquals(0, dir.globalDepth());
    assertNull(lookup(storage, dir, "n-missing", NameHash.of("n-missing"), SlotHash.XXH64));
  }

  /**
   * Built a region of the hash space at a time from files on disk (as a segment of millions of rows
   * is), the index finds what one built in memory finds: every bucket within its region (local
   * depth at least the regions'), empty regions pointing nowhere.
   */
  @Test
  void anIndexBuiltByRegionsFindsEveryNameAndNoMissing() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("e"));
    SegmentDirectory dir;
    int count = 5000;
    try (SegmentFileWriter out =
            new SegmentFileWriter(storage.create(FileNames.segmentFileName(1), FileUse.INDEX));
        IndexInputs inputs = IndexInputs.forCount(count, 150)) {
      assertEquals(6, inputs.depth(), "5000 records in regions of at most 150");
      for (int i = 0; i < count; i++) {
        if (!inRegionFive(i)) {
          IndexInput in = input("r" + i, NameHash.of("r" + i), i);
          inputs.add(in.nameUtf8(), in.record());
        }
      }
      dir = SegmentIndexWriter.write(out, inputs, 1000, SlotHash.XXH64);
      out.finish();
    }
    long keys = 0;
    for (BucketDescriptor d : dir.buckets()) {
      assertTrue(d.localDepth() >= 6 && d.localDepth() <= dir.globalDepth(), d.toString());
      keys += d.keyCount();
    }
    int regionFive = 0;
    for (int i = 0; i < count; i++) {
      IndexRecord r = lookup(storage, dir, "r" + i, NameHash.of("r" + i), SlotHash.XXH64);
      if (inRegionFive(i)) {
        // A region given no name at all points nowhere.
        assertEquals(-1, dir.bucketFor(NameHash.of("r" + i)));
        regionFive++;
      } else {
        assertEquals(16 + 100L * i, r.offset(), "r" + i);
      }
    }
    assertTrue(regionFive > 0);
    assertEquals(count - regionFive, keys);
    for (int i = 0; i < 1000; i++) {
      assertNull(lookup(storage, dir, "gone" + i, NameHash.of("gone" + i), SlotHash.XXH64));
    }
  }

  private static boolean inRegionFive(int i) {
    return NameHash.of("r" + i) >>> 58 == 5;
  }

  /** The sort by packed keys against a plain sort: hashes alike in their high bits, the top bit. */
  @Test
  void inputsSortByTheirWholeHashesUnsigned() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(9);
    List<IndexInput> inputs = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      long hash = random.nextLong();
      if (i % 10 == 0) {
        hash = 0x8000_0000_0000_0000L | (random.nextInt(4) << 20) | random.nextInt(1 << 20);
      }
      inputs.add(input("s" + i, hash, i));
    }
    for (int low = 100; low > 0; low--) { // alike in all but their low bits, in falling order
      inputs.add(input("t" + low, 0x1234_5678_9ab0_0000L | low, low));
    }
    List<IndexInput> expected = new ArrayList<>(inputs);
    expected.sort(
        (a, b) -> Long.compareUnsigned(a.record().fingerprint(), b.record().fingerprint()));
    assertEquals(
        expected, List.of(SegmentIndexWriter.sortByHash(inputs.toArray(new IndexInput[0]))));
  }
}
