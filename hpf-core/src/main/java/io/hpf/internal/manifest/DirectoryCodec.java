package io.hpf.internal.manifest;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.index.SegmentDirectory;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes and decodes a segment's directory in its manifest (FORMAT.md "Directory"): the bucket
 * descriptors, then the leaves in hash order (depth and bucket), from which the 2^globalDepth
 * pointers follow, so the manifest stays small however deep the directory. Decoding runs in every
 * reader's first open, in a cold JVM: tight loops over the manifest's bytes, the descriptors kept
 * as the manifest's table.
 */
final class DirectoryCodec {
  private static final int NO_BUCKET = -1;

  /** Bytes of a leaf: depth u8, bucket u32. */
  private static final int LEAF_BYTES = 5;

  /** Bytes of a bucket descriptor in versions 1–3, which had no offset. */
  private static final int DESCRIPTOR_BYTES_V1 = SegmentDirectory.DESCRIPTOR_BYTES - 8;

  private DirectoryCodec() {}

  /** Writes a directory: global depth, descriptors, leaves. */
  static void write(ByteWriter out, SegmentDirectory dir) {
    out.u8(dir.globalDepth()).u32(dir.bucketCount());
    for (BucketDescriptor b : dir.buckets()) {
      out.u32(b.bucketNo()).u8(b.localDepth()).u32(b.keyCount()).u32(b.metaLength());
      out.u64(b.fileLength()).u64(b.offset());
    }
    List<int[]> leaves = leaves(dir);
    out.u32(leaves.size());
    for (int[] leaf : leaves) {
      out.u8(leaf[0]).u32(leaf[1]);
    }
  }

  /** The directory's leaves in pointer order: {depth, bucket index or -1}. */
  private static List<int[]> leaves(SegmentDirectory dir) {
    List<int[]> leaves = new ArrayList<>();
    int g = dir.globalDepth();
    int i = 0;
    while (i < dir.pointerCount()) {
      int bucket = dir.pointer(i);
      // A run of equal pointers of length 2^k, aligned, is one leaf of depth g-k. An empty
      // region may span several aligned leaves; split it at alignment boundaries.
      int run = 1;
      while (i + run < dir.pointerCount() && dir.pointer(i + run) == bucket) {
        run++;
      }
      if (bucket != NO_BUCKET) {
        int depth = dir.localDepth(bucket);
        int span = 1 << (g - depth);
        for (int k = 0; k < run; k += span) {
          leaves.add(new int[] {depth, bucket});
        }
      } else {
        int k = 0;
        while (k < run) {
          int span = Integer.lowestOneBit(i + k == 0 ? 1 << g : i + k);
          while (span > run - k) {
            span >>= 1;
          }
          leaves.add(new int[] {g - Integer.numberOfTrailingZeros(span), NO_BUCKET});
          k += span;
        }
      }
      i += run;
    }
    return leaves;
  }

  /**
   * A segment's directory, expanded into its pointers; {@code pointers[0]} counts those of the
   * manifest's directories so far, which together may not pass {@link
   * FormatConstants#MAX_MANIFEST_POINTERS} (FORMAT.md "Directory").
   */
  static SegmentDirectory read(ByteReader in, boolean placed, long[] pointers)
      throws CorruptArchiveException {
    int g = in.u8("global depth");
    if (g > FormatConstants.MAX_GLOBAL_DEPTH) {
      throw in.corrupt("global depth " + g + " is over " + FormatConstants.MAX_GLOBAL_DEPTH);
    }
    pointers[0] += 1L << g;
    if (pointers[0] > FormatConstants.MAX_MANIFEST_POINTERS) {
      throw in.corrupt(
          "directories of "
              + pointers[0]
              + " pointers in all, over the 16777216 (2^24) of a manifest");
    }
    return read(in, placed, g);
  }

  private static SegmentDirectory read(ByteReader in, boolean placed, int g)
      throws CorruptArchiveException {
    int bucketCount = in.count("bucket count");
    byte[] table = descriptorTable(in, placed, bucketCount, g);
    // Tight loops over the manifest's bytes, not a read call a field: a first open runs them in a
    // cold JVM, where each call costs (FORMAT.md "Directory"; BENCHMARKS "Scale").
    int[] pointers = new int[1 << g];
    int leafCount = in.count("leaf count");
    byte[] bytes = in.array();
    int at = in.arrayPosition();
    long leavesAt = in.fileOffset();
    in.skip(checkedBytes(in, leafCount, LEAF_BYTES, "directory leaves"), "directory leaves");
    int filled = 0; // pointers set so far
    for (int leaf = 0; leaf < leafCount; leaf++, at += LEAF_BYTES) {
      int depth = bytes[at] & 0xFF;
      int bucket = ByteReader.getU32(bytes, at + 1);
      int span = depth > g ? -1 : 1 << (g - depth);
      boolean validBucket =
          bucket == NO_BUCKET
              || (bucket >= 0
                  && bucket < bucketCount
                  && (table[
                              bucket * SegmentDirectory.DESCRIPTOR_BYTES
                                  + SegmentDirectory.LOCAL_DEPTH_AT]
                          & 0xFF)
                      == depth);
      if (span < 0 || !validBucket || filled + span > pointers.length || filled % span != 0) {
        throw new CorruptArchiveException(
            in.file(),
            leavesAt + (long) leaf * LEAF_BYTES,
            "directory leaf (depth " + depth + ", bucket " + bucket + ") does not fit");
      }
      for (int end = filled + span; filled < end; filled++) {
        pointers[filled] = bucket;
      }
    }
    if (filled != pointers.length) {
      throw in.corrupt("directory leaves cover " + filled + " of " + pointers.length + " pointers");
    }
    return SegmentDirectory.ofTable(g, table, pointers);
  }

  /**
   * The bucket descriptors as a table of {@link SegmentDirectory#DESCRIPTOR_BYTES}-byte rows
   * (versions 1–3 store no offset: their rows get 0), each checked: numbers and counts are u32
   * below 2^31, local depths at most {@code g}.
   */
  private static byte[] descriptorTable(ByteReader in, boolean placed, int count, int g)
      throws CorruptArchiveException {
    int stored = placed ? SegmentDirectory.DESCRIPTOR_BYTES : DESCRIPTOR_BYTES_V1;
    long tableAt = in.fileOffset();
    int from = in.arrayPosition();
    in.skip(checkedBytes(in, count, stored, "bucket descriptors"), "bucket descriptors");
    byte[] bytes = in.array();
    byte[] table = new byte[count * SegmentDirectory.DESCRIPTOR_BYTES];
    if (placed) {
      System.arraycopy(bytes, from, table, 0, table.length);
    } else {
      for (int b = 0; b < count; b++) {
        System.arraycopy(
            bytes, from + b * stored, table, b * SegmentDirectory.DESCRIPTOR_BYTES, stored);
      }
    }
    for (int b = 0, row = 0; b < count; b++, row += SegmentDirectory.DESCRIPTOR_BYTES) {
      // The high bytes of bucket number, key count and meta length: each below 2^31.
      int high = table[row + 3] | table[row + 8] | table[row + 12];
      int depth = table[row + SegmentDirectory.LOCAL_DEPTH_AT] & 0xFF;
      if (high < 0 || depth > g) {
        String number = Integer.toUnsignedString(ByteReader.getU32(table, row));
        throw new CorruptArchiveException(
            in.file(),
            tableAt + (long) b * stored,
            depth > g
                ? "bucket " + number + " local depth " + depth + " > global " + g
                : "bucket descriptor "
                    + b
                    + " has a number or count over 2^31 (number "
                    + number
                    + ", key count "
                    + Integer.toUnsignedString(ByteReader.getU32(table, row + 5))
                    + ", meta length "
                    + Integer.toUnsignedString(ByteReader.getU32(table, row + 9))
                    + ")");
      }
    }
    return table;
  }

  /** {@code count * size} bytes, refused if the manifest does not hold them. */
  private static int checkedBytes(ByteReader in, int count, int size, String what)
      throws CorruptArchiveException {
    long bytes = (long) count * size;
    if (bytes > in.remaining()) {
      throw in.corrupt(count + " " + what + " need " + bytes + " bytes, only " + in.remaining());
    }
    return (int) bytes;
  }
}
