package io.hpf.internal.index;

import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.ChecksummedOutput;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.SegmentFileWriter;
import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Writes a segment's index: splits the names by extendible hashing into buckets of at most {@code
 * bucketCapacity} records, and writes each bucket as a section of the segment file holding a
 * perfect hash and its records in slot order (FORMAT.md "Bucket file"). Segments are immutable, so
 * the split that incremental extendible hashing would reach is computed directly: a bucket whose
 * names share d leading hash bits splits on bit d+1 until it fits.
 *
 * <p>REQUIRES: no two inputs have the same name (the archive writer reports duplicates with their
 * names first). Not thread-safe; one call writes one segment.
 */
public final class SegmentIndexWriter {
  /** New seeds tried when two names' slot hashes collide; one retry is already rare (2^-64). */
  private static final int MAX_SEED_ATTEMPTS = 64;

  private final SegmentFileWriter out;
  private final int bucketCapacity;
  private final SlotHash slotHash;
  private final List<BucketDescriptor> buckets = new ArrayList<>();

  private SegmentIndexWriter(SegmentFileWriter out, int bucketCapacity, SlotHash slotHash) {
    if (bucketCapacity < 1) {
      throw new IllegalArgumentException("bucket capacity must be at least 1: " + bucketCapacity);
    }
    this.out = out;
    this.bucketCapacity = bucketCapacity;
    this.slotHash = slotHash;
  }

  /**
   * Writes the buckets of a segment into its segment file, one section each, and returns its
   * directory, for the manifest.
   */
  public static SegmentDirectory write(
      SegmentFileWriter out, List<IndexInput> inputs, int bucketCapacity) throws IOException {
    return write(out, inputs, bucketCapacity, SlotHash.XXH64);
  }

  static SegmentDirectory write(
      SegmentFileWriter out, List<IndexInput> inputs, int bucketCapacity, SlotHash slotHash)
      throws IOException {
    try (IndexInputs gathered = IndexInputs.forCount(inputs.size())) {
      for (IndexInput input : inputs) {
        gathered.add(input.nameUtf8(), input.record());
      }
      return write(out, gathered, bucketCapacity, slotHash);
    }
  }

  /** As {@link #write(SegmentFileWriter, List, int)}, of names and records gathered. */
  public static SegmentDirectory write(
      SegmentFileWriter out, IndexInputs inputs, int bucketCapacity) throws IOException {
    return write(out, inputs, bucketCapacity, SlotHash.XXH64);
  }

  static SegmentDirectory write(
      SegmentFileWriter out, IndexInputs inputs, int bucketCapacity, SlotHash slotHash)
      throws IOException {
    inputs.finishAdding();
    SegmentIndexWriter writer = new SegmentIndexWriter(out, bucketCapacity, slotHash);
    List<Placed> placed = new ArrayList<>();
    int bucketCount = 0;
    for (int region = 0; region < 1 << inputs.depth(); region++) {
      IndexInput[] sorted = sortByHash(inputs.region(region));
      List<Leaf> regionLeaves = new ArrayList<>();
      writer.split(sorted, 0, sorted.length, inputs.depth(), region, regionLeaves);
      // The buckets' perfect hashes are independent and most of a commit's index time: built on
      // every core, then written in bucket order.
      List<Leaf> filled = regionLeaves.stream().filter(l -> l.to > l.from).toList();
      Built[] built = new Built[filled.size()];
      IntStream.range(0, built.length)
          .parallel()
          .forEach(i -> built[i] = writer.build(sorted, filled.get(i).from, filled.get(i).to));
      for (int i = 0; i < built.length; i++) {
        Leaf leaf = filled.get(i);
        writer.writeBucket(sorted, leaf.from, leaf.to, leaf.depth, built[i]);
      }
      for (Leaf leaf : regionLeaves) {
        placed.add(new Placed(leaf.depth, leaf.prefix, leaf.to > leaf.from ? bucketCount++ : -1));
      }
    }
    int globalDepth = placed.stream().mapToInt(l -> l.depth).max().orElse(0);
    int[] pointers = new int[1 << globalDepth];
    for (Placed leaf : placed) {
      int shift = globalDepth - leaf.depth;
      int first = (int) (leaf.prefix << shift);
      Arrays.fill(pointers, first, first + (1 << shift), leaf.bucket);
    }
    return new SegmentDirectory(globalDepth, writer.buckets, pointers);
  }

  private static final Comparator<IndexInput> BY_HASH =
      (a, b) -> Long.compareUnsigned(a.record().fingerprint(), b.record().fingerprint());

  /** Bits of a sort key that say where its input was. */
  private static final int POSITION_BITS = 20;

  /**
   * The inputs in unsigned name-hash order. Sorting objects by a field costs a pointer chase per
   * comparison and was most of a large commit's index time: each input's hash goes into a long with
   * the input's position in its low bits (the order of the hash's high 44 bits, signed once the top
   * bit is flipped), the longs are sorted as numbers, and inputs whose hashes share those 44 bits,
   * a few in a region at most, are put in order by their whole hashes after.
   */
  static IndexInput[] sortByHash(IndexInput[] inputs) {
    int n = inputs.length;
    if (n >= 1 << POSITION_BITS) {
      Arrays.sort(inputs, BY_HASH);
      return inputs;
    }
    long positionMask = (1L << POSITION_BITS) - 1;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = ((inputs[i].record().fingerprint() ^ Long.MIN_VALUE) & ~positionMask) | i;
    }
    Arrays.sort(keys);
    IndexInput[] sorted = new IndexInput[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = inputs[(int) (keys[i] & positionMask)];
    }
    for (int i = 1; i < n; i++) { // insertion sort, which finds little to move
      IndexInput moving = sorted[i];
      int j = i;
      while (j > 0 && BY_HASH.compare(sorted[j - 1], moving) > 0) {
        sorted[j] = sorted[j - 1];
        j--;
      }
      sorted[j] = moving;
    }
    return sorted;
  }

  /** A region of the hash space: the names {@code sorted[from, to)}, none if empty. */
  private record Leaf(int depth, long prefix, int from, int to) {}

  /** A region of the hash space once written: its bucket's index, or -1 where it has no name. */
  private record Placed(int depth, long prefix, int bucket) {}

  /** A bucket's perfect hash, the seed it was found with and the names' slot hashes. */
  private record Built(PerfectHash hash, long seed, long[] keys) {}

  private void split(
      IndexInput[] sorted, int from, int to, int depth, long prefix, List<Leaf> out) {
    int count = to - from;
    boolean allSameHash =
        count > 0 && sorted[from].record().fingerprint() == sorted[to - 1].record().fingerprint();
    if (count <= bucketCapacity || depth == FormatConstants.MAX_GLOBAL_DEPTH || allSameHash) {
      out.add(new Leaf(depth, prefix, from, to));
      return;
    }
    // Sorted by unsigned hash, so the names whose next bit is 1 form the upper part.
    long bit = 1L << (63 - depth);
    int mid = from;
    while (mid < to && (sorted[mid].record().fingerprint() & bit) == 0) {
      mid++;
    }
    split(sorted, from, mid, depth + 1, prefix << 1, out);
    split(sorted, mid, to, depth + 1, (prefix << 1) | 1, out);
  }

  /** Finds a seed under which the names' slot hashes differ, and their perfect hash. */
  private Built build(IndexInput[] sorted, int from, int to) {
    int count = to - from;
    long seed = 1;
    PerfectHash hash = null;
    long[] keys = new long[count];
    for (int attempt = 0; hash == null; attempt++, seed++) {
      for (int i = 0; i < count; i++) {
        keys[i] = slotHash.hash(sorted[from + i].nameUtf8(), seed);
      }
      try {
        hash = PerfectHash.build(keys);
      } catch (DuplicateKeyException | PerfectHash.PilotSearchException e) {
        if (e instanceof DuplicateKeyException d) {
          rejectDuplicateNames(sorted, from, to, keys, d.key());
        }
        if (attempt == MAX_SEED_ATTEMPTS) {
          throw new IllegalStateException(
              "no perfect hash after " + MAX_SEED_ATTEMPTS + " seeds: " + e.getMessage(), e);
        }
        hash = null; // another seed hashes the names differently
      }
    }
    return new Built(hash, seed - 1, keys); // the loop advanced past the seed that worked
  }

  private void writeBucket(IndexInput[] sorted, int from, int to, int localDepth, Built built)
      throws IOException {
    int count = to - from;
    PerfectHash hash = built.hash();
    long seed = built.seed();
    long[] keys = built.keys();
    IndexRecord[] bySlot = new IndexRecord[count];
    for (int i = 0; i < count; i++) {
      bySlot[hash.slot(keys[i])] = sorted[from + i].record();
    }

    int bucketNo = buckets.size();
    ByteWriter meta = new ByteWriter(64 + count);
    FileFraming.writeHeader(meta, FormatConstants.KIND_BUCKET);
    meta.u32(count).u32(FormatConstants.RECORD_BYTES).u64(seed);
    ByteWriter hashBytes = new ByteWriter();
    hash.writeTo(hashBytes);
    meta.u32(hashBytes.size()).bytes(hashBytes.array(), 0, hashBytes.size());
    // One byte of each slot's name hash, kept in memory by readers: a lookup of a name the
    // bucket does not hold is answered without reading a record 255 times out of 256.
    for (IndexRecord record : bySlot) {
      meta.u8(IndexBucket.slotFingerprint(record.fingerprint()));
    }
    meta.crcOf(FormatConstants.FILE_HEADER_BYTES);
    int metaLength = meta.size();
    long offset = out.position();
    long fileLength;
    try (AppendableFile file = out.section()) {
      ChecksummedOutput checked = new ChecksummedOutput(file);
      checked.write(meta);
      ByteWriter records = new ByteWriter(FormatConstants.RECORD_BYTES * Math.min(count, 4096));
      for (IndexRecord record : bySlot) {
        record.writeTo(records);
        if (records.size() >= 1 << 17) {
          checked.write(records);
          records.reset();
        }
      }
      checked.write(records);
      checked.writeFooter();
      file.sync();
      fileLength = file.position();
    }
    buckets.add(new BucketDescriptor(bucketNo, localDepth, count, metaLength, fileLength, offset));
  }

  /** Two equal slot hashes: a true duplicate name is the caller's error; else try a new seed. */
  private static void rejectDuplicateNames(
      IndexInput[] sorted, int from, int to, long[] keys, long key) {
    byte[] first = null;
    for (int i = 0; i < to - from; i++) {
      if (keys[i] == key) {
        byte[] name = sorted[from + i].nameUtf8();
        if (first != null && Arrays.equals(first, name)) {
          throw new IllegalArgumentException(
              "duplicate entry name '" + new String(name, StandardCharsets.UTF_8) + "'");
        }
        first = name;
      }
    }
  }
}
