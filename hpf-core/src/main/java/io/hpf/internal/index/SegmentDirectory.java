package io.hpf.internal.index;

import java.util.List;

/**
 * The extendible-hashing directory of a segment's index (FORMAT.md "Directory"): 2^globalDepth
 * pointers, indexed by the top globalDepth bits of a name hash, each naming a bucket (an index into
 * {@link #buckets}) or -1 where no name of the segment has that prefix. A bucket of local depth d
 * is pointed to by 2^(globalDepth - d) consecutive pointers. Immutable.
 */
public record SegmentDirectory(int globalDepth, List<BucketDescriptor> buckets, int[] pointers) {

  public SegmentDirectory {
    buckets = List.copyOf(buckets);
    pointers = pointers.clone();
  }

  /** The index into {@link #buckets} of the bucket for a name hash, or -1 for none. */
  public int bucketFor(long nameHash) {
    return globalDepth == 0 ? pointers[0] : pointers[(int) (nameHash >>> (64 - globalDepth))];
  }

  @Override
  public int[] pointers() {
    return pointers.clone();
  }

  public int pointerCount() {
    return pointers.length;
  }

  public int pointer(int index) {
    return pointers[index];
  }
}
