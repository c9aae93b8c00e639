package io.hpf.internal.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PerfectHashTest {

  private static long[] randomKeys(int n, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = random.nextLong();
    }
    return keys;
  }

  /** The function is a bijection from the keys onto [0, n). */
  private static void assertMinimalPerfect(PerfectHash hash, long[] keys) {
    BitSet seen = new BitSet(keys.length);
    for (long key : keys) {
      int slot = hash.slot(key);
      assertTrue(slot >= 0 && slot < keys.length, "slot " + slot + " out of range");
      assertTrue(!seen.get(slot), "slot " + slot + " given twice");
      seen.set(slot);
    }
    assertEquals(keys.length, seen.cardinality());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 7, 63, 64, 65, 100, 1000, 4097, 65536, 300_000})
  void mapsEveryKeyToADistinctSlot(int n) throws Exception {
    long[] keys = randomKeys(n, n);
    PerfectHash hash = PerfectHash.build(keys);
    assertMinimalPerfect(hash, keys);
    // The serialized form answers the same for every key.
    ByteWriter out = new ByteWriter();
    hash.writeTo(out);
    PerfectHash read = PerfectHash.readFrom(new ByteReader("test", 0, out.toByteArray()));
    for (long key : keys) {
      assertEquals(hash.slot(key), read.slot(key));
    }
  }

  @Test
  void everySmallSizeBuildsWithManySeeds() throws Exception {
    // Small buckets are where a pilot search can get stuck (no table slack below 64 keys).
    for (int n = 1; n <= 300; n++) {
      for (long seed = 0; seed < 20; seed++) {
        long[] keys = randomKeys(n, n * 1000L + seed);
        assertMinimalPerfect(PerfectHash.build(keys), keys);
      }
    }
  }

  @Test
  void staysNearThreeBitsPerKey() throws Exception {
    PerfectHash hash = PerfectHash.build(randomKeys(100_000, 42));
    assertTrue(hash.bitsPerKey() < 3.2, "bits per key " + hash.bitsPerKey());
  }

  @Test
  void structuredKeysWork() throws Exception {
    // Consecutive integers and keys differing in one bit must not defeat the mixing.
    long[] keys = new long[50_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i < 25_000 ? i : 1L << (i % 64) | ((long) i << 40);
    }
    keys = java.util.Arrays.stream(keys).distinct().toArray();
    assertMinimalPerfect(PerfectHash.build(keys), keys);
  }

  @Test
  void rejectsDuplicateKeysByValue() {
    long[] keys = randomKeys(1000, 7);
    keys[500] = keys[10];
    DuplicateKeyException e =
        assertThrows(DuplicateKeyException.class, () -> PerfectHash.build(keys));
    assertEquals(keys[10], e.key());
  }

  @Test
  void emptySetSerializes() throws Exception {
    PerfectHash hash = PerfectHash.build(new long[0]);
    ByteWriter out = new ByteWriter();
    hash.writeTo(out);
    assertEquals(0, PerfectHash.readFrom(new ByteReader("t", 0, out.toByteArray())).numKeys());
  }

  @Test
  void damagedLayoutIsCorruptionNotAnIndexError() throws Exception {
    PerfectHash hash = PerfectHash.build(randomKeys(1000, 3));
    ByteWriter out = new ByteWriter();
    hash.writeTo(out);
    byte[] bytes = out.toByteArray();
    byte[] badCount = bytes.clone();
    badCount[8] = (byte) 0xFF; // bucket count
    assertThrows(
        CorruptArchiveException.class,
        () -> PerfectHash.readFrom(new ByteReader("t", 0, badCount)));
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 3);
    assertThrows(
        CorruptArchiveException.class,
        () -> PerfectHash.readFrom(new ByteReader("t", 0, truncated)));
  }

  @Test
  void headersClaimingBillionsOfKeysAreRejectedBeforeAnythingIsAllocated() {
    int huge = Integer.MAX_VALUE;
    long[][] shapes = {
      // keys, table, buckets, pilot dictionary size: each would size an array of gigabytes
      {huge, huge, huge, huge},
      {huge, huge, 1, 0},
      {1000, 1000, 200, huge},
      {1000, 2000, 200, 0}, // a table far past ceil(n / 0.99)
    };
    for (long[] shape : shapes) {
      ByteWriter out = new ByteWriter();
      out.u32((int) shape[0]).u32((int) shape[1]).u32((int) shape[2]);
      out.u8(shape[3] > 0 ? 2 : 1).u8(20).u8(20).u8(0);
      out.u32((int) shape[3]);
      out.u32(huge).u32(huge);
      byte[] bytes = out.toByteArray();
      assertThrows(
          CorruptArchiveException.class,
          () -> PerfectHash.readFrom(new ByteReader("t", 0, bytes)),
          java.util.Arrays.toString(shape));
    }
  }

  @Test
  void packedIntsRoundTripAcrossWordBoundaries() {
    for (int width : new int[] {0, 1, 3, 7, 13, 31, 32}) {
      int[] values = new int[200];
      for (int i = 0; i < values.length; i++) {
        values[i] = width == 0 ? 0 : (int) ((i * 2654435761L) & ((1L << width) - 1));
      }
      long[] words = PackedInts.pack(values, values.length, width);
      int[] back = new int[values.length];
      for (int i = 0; i < values.length; i++) {
        back[i] = PackedInts.get(words, width, i);
      }
      assertArrayEquals(values, back, "width " + width);
    }
  }
}
