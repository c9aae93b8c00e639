package io.hpf.internal.index;

import io.hpf.internal.format.ByteReader;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The extendible-hashing directory of a segment's index (FORMAT.md "Directory"): 2^globalDepth
 * pointers, indexed by the top globalDepth bits of a name hash, each naming a bucket (an index into
 * {@link #buckets}) or -1 where no name of the segment has that prefix. A bucket of local depth d
 * is pointed to by 2^(globalDepth - d) consecutive pointers. Immutable.
 *
 * <p>The bucket descriptors are kept as the manifest stores them (a table of {@value
 * #DESCRIPTOR_BYTES}-byte rows, little-endian) and made into objects only when asked for: a
 * reader's first open then costs one copy however many buckets the archive has (2,048 at 100M
 * entries), not an object each, which a cold JVM makes slowly.
 */
public final class SegmentDirectory {
  /** Bytes of a descriptor row: number, local depth, key count, meta length, length, offset. */
  public static final int DESCRIPTOR_BYTES = 29;

  /** Where the local depth is in a descriptor row. */
  public static final int LOCAL_DEPTH_AT = 4;

  private final int globalDepth;
  private final byte[] descriptors;
  private final int bucketCount;
  private final int[] pointers;

  /** A directory of these buckets and pointers (a writer's). */
  public SegmentDirectory(int globalDepth, List<BucketDescriptor> buckets, int[] pointers) {
    this(globalDepth, table(buckets), pointers.clone());
  }

  private SegmentDirectory(int globalDepth, byte[] descriptors, int[] pointers) {
    this.globalDepth = globalDepth;
    this.descriptors = descriptors;
    this.bucketCount = descriptors.length / DESCRIPTOR_BYTES;
    this.pointers = pointers;
  }

  /**
   * A directory of a descriptor table and pointers a manifest's reader has decoded and checked; the
   * directory keeps both arrays, which the caller must not change.
   */
  /** The same buckets written {@code by} bytes further into their segment file. */
  public SegmentDirectory movedBy(long by) {
    List<BucketDescriptor> moved = new java.util.ArrayList<>();
    for (BucketDescriptor b : buckets()) {
      moved.add(
          new BucketDescriptor(
              b.bucketNo(),
              b.localDepth(),
              b.keyCount(),
              b.metaLength(),
              b.fileLength(),
              b.offset() + by));
    }
    return new SegmentDirectory(globalDepth, moved, pointers);
  }

  public static SegmentDirectory ofTable(int globalDepth, byte[] descriptors, int[] pointers) {
    if (descriptors.length % DESCRIPTOR_BYTES != 0) {
      throw new IllegalArgumentException("a descriptor table of " + descriptors.length + " bytes");
    }
    return new SegmentDirectory(globalDepth, descriptors, pointers);
  }

  private static byte[] table(List<BucketDescriptor> buckets) {
    java.nio.ByteBuffer table =
        java.nio.ByteBuffer.allocate(buckets.size() * DESCRIPTOR_BYTES)
            .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (BucketDescriptor b : buckets) {
      table.putInt(b.bucketNo()).put((byte) b.localDepth()).putInt(b.keyCount());
      table.putInt(b.metaLength()).putLong(b.fileLength()).putLong(b.offset());
    }
    return table.array();
  }

  public int globalDepth() {
    return globalDepth;
  }

  public int bucketCount() {
    return bucketCount;
  }

  /** The descriptor of bucket {@code index} (an index into the table, not its number). */
  public BucketDescriptor bucket(int index) {
    int at = index * DESCRIPTOR_BYTES;
    return new BucketDescriptor(
        ByteReader.getU32(descriptors, at),
        localDepth(index),
        ByteReader.getU32(descriptors, at + 5),
        ByteReader.getU32(descriptors, at + 9),
        bucketLength(index),
        bucketOffset(index));
  }

  /** The bucket's length in bytes (its file's, or its section's of a segment file). */
  public long bucketLength(int index) {
    return ByteReader.getU64(descriptors, index * DESCRIPTOR_BYTES + 13);
  }

  /** Where the bucket starts in its segment file, or 0 in a file of its own. */
  public long bucketOffset(int index) {
    return ByteReader.getU64(descriptors, index * DESCRIPTOR_BYTES + 21);
  }

  /**
   * The index of the first bucket that does not lie within bytes {@code [from, to)} of its segment
   * file, or -1 if all do.
   */
  public int firstBucketOutside(long from, long to) {
    for (int i = 0, at = 0; i < bucketCount; i++, at += DESCRIPTOR_BYTES) {
      long length = ByteReader.getU64(descriptors, at + 13);
      long offset = ByteReader.getU64(descriptors, at + 21);
      if (offset < from || length < 0 || length > to - offset) {
        return i;
      }
    }
    return -1;
  }

  public int localDepth(int index) {
    return descriptors[index * DESCRIPTOR_BYTES + LOCAL_DEPTH_AT] & 0xFF;
  }

  /** The buckets' descriptors, in table order, each made when asked for. */
  public List<BucketDescriptor> buckets() {
    return new Descriptors();
  }

  /** The index into {@link #buckets} of the bucket for a name hash, or -1 for none. */
  public int bucketFor(long nameHash) {
    return globalDepth == 0 ? pointers[0] : pointers[(int) (nameHash >>> (64 - globalDepth))];
  }

  public int[] pointers() {
    return pointers.clone();
  }

  public int pointerCount() {
    return pointers.length;
  }

  public int pointer(int index) {
    return pointers[index];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SegmentDirectory d
        && d.globalDepth == globalDepth
        && Arrays.equals(d.descriptors, descriptors)
        && Arrays.equals(d.pointers, pointers);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * globalDepth + Arrays.hashCode(descriptors)) + Arrays.hashCode(pointers);
  }

  @Override
  public String toString() {
    return "a directory of depth " + globalDepth + " and " + bucketCount + " buckets";
  }

  private final class Descriptors extends AbstractList<BucketDescriptor> implements RandomAccess {
    @Override
    public BucketDescriptor get(int index) {
      if (index < 0 || index >= bucketCount) {
        throw new IndexOutOfBoundsException(index);
      }
      return bucket(index);
    }

    @Override
    public int size() {
      return bucketCount;
    }
  }
}
