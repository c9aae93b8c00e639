package io.hpf.internal.index;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ByteWriter;
import java.util.Arrays;
import java.util.Locale;

/**
 * A minimal perfect hash function over a set of n distinct 64-bit keys: maps each key of the set to
 * a distinct slot in [0, n). Keys outside the set map to some slot; the caller checks the record's
 * fingerprint.
 *
 * <p>The algorithm is PTHash (Pibiri and Trani, SIGIR 2021) with PHOBIC's observation that buckets
 * are best kept small: keys are split into m = n/5 buckets, skewed so that 60% of the keys fall
 * into 30% of the buckets (chosen by {@code fmix64(k)}, the bucket inside that part by {@code
 * fmix64(k ^ GOLDEN_2)}); buckets are placed largest first, each by searching for a "pilot" p such
 * that every key k of the bucket lands on a free position {@code fastrange(fmix64(k ^ fmix64(p ^
 * GOLDEN)), T)} of a table of T = n/0.99 positions. Positions at or past n are remapped to the free
 * slots below n. Pilots are stored either at a fixed width or as indexes into a dictionary of
 * distinct pilot values, whichever is smaller. The byte layout is FORMAT.md "Perfect hash"; every
 * function used is a published one (MurmurHash3's fmix64, Lemire's fastrange).
 *
 * <p>Cost: about 2.5 to 3 bits per key; build is O(n) expected; a query is a few multiplications
 * and at most three array reads. Immutable and thread-safe.
 */
public final class PerfectHash {
  static final int ENCODING_COMPACT = 1;
  static final int ENCODING_DICTIONARY = 2;

  /**
   * Set to "true", the pilots are always stored through a dictionary (encoding 2), which writers
   * otherwise choose only where it is smaller: for the golden archives, so that every encoding a
   * reader must read is in them. Never set in use.
   */
  public static final String PILOT_DICTIONARY_PROPERTY = "hpf.golden.pilotDictionary";

  /** Average keys per bucket (PTHash's lambda). */
  private static final double KEYS_PER_BUCKET = 5.0;

  /** Below this many keys, pilot buckets hold 2 keys on average instead of 5. */
  private static final int SMALL_KEYS = 256;

  /** Load factor of the search table (PTHash's alpha). */
  private static final double LOAD_FACTOR = 0.99;

  /** 0.6 * 2^64: keys below this (unsigned) go to the dense 30% of buckets. */
  private static final long DENSE_KEY_THRESHOLD = 0x9999_9999_9999_9999L;

  private static final long GOLDEN = 0x9E37_79B9_7F4A_7C15L;
  private static final long GOLDEN_2 = 0xC2B2_AE3D_27D4_EB4FL;
  private static final int PILOT_CACHE = 4096;
  private static final long[] PILOT_HASHES = new long[PILOT_CACHE];

  /** A search this long means something is wrong with the keys; it never happens otherwise. */
  private static final long MAX_PILOT = 1L << 26;

  static {
    for (int p = 0; p < PILOT_CACHE; p++) {
      PILOT_HASHES[p] = pilotHash(p);
    }
  }

  private final int numKeys;
  private final int tableSize;
  private final int numBuckets;
  private final int denseBuckets;
  private final int encoding;
  private final int pilotBits;
  private final int[] dictionary;
  private final long[] pilotWords;
  private final int remapBits;
  private final long[] remapWords;

  private PerfectHash(
      int numKeys,
      int tableSize,
      int numBuckets,
      int encoding,
      int pilotBits,
      int[] dictionary,
      long[] pilotWords,
      int remapBits,
      long[] remapWords) {
    this.numKeys = numKeys;
    this.tableSize = tableSize;
    this.numBuckets = numBuckets;
    this.denseBuckets = denseBuckets(numBuckets);
    this.encoding = encoding;
    this.pilotBits = pilotBits;
    this.dictionary = dictionary;
    this.pilotWords = pilotWords;
    this.remapBits = remapBits;
    this.remapWords = remapWords;
  }

  private static int denseBuckets(int numBuckets) {
    return (int) ((long) numBuckets * 3 / 10);
  }

  /** MurmurHash3's 64-bit finalizer: a bijection that mixes every input bit into every output. */
  static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51_afd7_ed55_8ccdL;
    k ^= k >>> 33;
    k *= 0xc4ce_b9fe_1a85_ec53L;
    k ^= k >>> 33;
    return k;
  }

  /** Lemire's fastrange: maps a uniform 64-bit x to [0, n) by the high word of x * n. */
  static long fastrange(long x, long n) {
    return Math.multiplyHigh(x, n) + ((x >> 63) & n);
  }

  static long pilotHash(long pilot) {
    return fmix64(pilot ^ GOLDEN);
  }

  /**
   * The bucket of a key. The dense/sparse choice and the bucket within each part come from two
   * different mixes of the key, so that neither depends on raw key bits (structured keys would
   * otherwise all land in the dense part) and the two choices are independent.
   */
  private static int bucketOf(long key, int numBuckets, int denseBuckets) {
    long choice = fmix64(key);
    long spread = fmix64(key ^ GOLDEN_2);
    if (Long.compareUnsigned(choice, DENSE_KEY_THRESHOLD) < 0) {
      return (int) fastrange(spread, denseBuckets);
    }
    return denseBuckets + (int) fastrange(spread, numBuckets - denseBuckets);
  }

  private static int position(long key, long pilotHash, int tableSize) {
    return (int) fastrange(fmix64(key ^ pilotHash), tableSize);
  }

  /** The slot in [0, n) of a key of the set; an arbitrary slot for any other key. */
  public int slot(long key) {
    if (numKeys == 0) {
      throw new IllegalStateException("empty perfect hash has no slots");
    }
    int bucket = bucketOf(key, numBuckets, denseBuckets);
    int stored = PackedInts.get(pilotWords, pilotBits, bucket);
    long pilot = encoding == ENCODING_DICTIONARY ? dictionary[stored] & 0xFFFFFFFFL : stored;
    long ph = pilot < PILOT_CACHE ? PILOT_HASHES[(int) pilot] : pilotHash(pilot);
    int pos = position(key, ph, tableSize);
    return pos < numKeys ? pos : PackedInts.get(remapWords, remapBits, pos - numKeys);
  }

  public int numKeys() {
    return numKeys;
  }

  /** Bits of the serialized form per key (0 for an empty function). */
  public double bitsPerKey() {
    return numKeys == 0 ? 0 : 8.0 * serializedBytes() / numKeys;
  }

  public int serializedBytes() {
    ByteWriter out = new ByteWriter();
    writeTo(out);
    return out.size();
  }

  /**
   * Builds the function over distinct keys. The array is not modified.
   *
   * @throws DuplicateKeyException if two keys are equal
   */
  public static PerfectHash build(long[] keys) throws DuplicateKeyException {
    int n = keys.length;
    if (n == 0) {
      return new PerfectHash(0, 0, 0, ENCODING_COMPACT, 0, new int[0], new long[0], 0, new long[0]);
    }
    // Small functions get more, smaller pilot buckets: with no table slack (T = n below 64
    // keys) a skewed bucket of many keys would almost never find a pilot; their size in bits
    // hardly matters. The reader takes m from the stored layout.
    double keysPerBucket = n < SMALL_KEYS ? 2.0 : KEYS_PER_BUCKET;
    int m = (int) Math.max(1, Math.ceil(n / keysPerBucket));
    int dense = denseBuckets(m);
    int tableSize = n < 64 ? n : (int) Math.min(Integer.MAX_VALUE - 1, Math.ceil(n / LOAD_FACTOR));

    // Counting sort of the keys by bucket.
    int[] bucketOfKey = new int[n];
    int[] start = new int[m + 1];
    for (int i = 0; i < n; i++) {
      bucketOfKey[i] = bucketOf(keys[i], m, dense);
      start[bucketOfKey[i] + 1]++;
    }
    int maxSize = 0;
    for (int b = 0; b < m; b++) {
      maxSize = Math.max(maxSize, start[b + 1]);
      start[b + 1] += start[b];
    }
    long[] byBucket = new long[n];
    int[] fill = Arrays.copyOf(start, m);
    for (int i = 0; i < n; i++) {
      byBucket[fill[bucketOfKey[i]]++] = keys[i];
    }
    checkDistinct(byBucket, start, m);
    int[] order = largestFirst(start, m, maxSize);

    long[] taken = new long[(tableSize + 63) >>> 6];
    int[] pilots = new int[m];
    int[] positions = new int[Math.max(1, maxSize)];
    for (int b : order) {
      int from = start[b];
      int size = start[b + 1] - from;
      if (size == 0) {
        break; // sizes descend, so every remaining bucket is empty
      }
      pilots[b] = searchPilot(byBucket, from, size, tableSize, taken, positions);
    }

    return encode(n, tableSize, m, pilots, remap(taken, n, tableSize));
  }

  /** Equal keys always share a bucket: found here, before a pilot search that could never end. */
  private static void checkDistinct(long[] byBucket, int[] start, int m)
      throws DuplicateKeyException {
    for (int b = 0; b < m; b++) {
      Arrays.sort(byBucket, start[b], start[b + 1]);
      for (int i = start[b] + 1; i < start[b + 1]; i++) {
        if (byBucket[i] == byBucket[i - 1]) {
          throw new DuplicateKeyException(byBucket[i]);
        }
      }
    }
  }

  /** The buckets largest first (a counting sort by size, descending). */
  private static int[] largestFirst(int[] start, int m, int maxSize) {
    int[] sizeStart = new int[maxSize + 2];
    for (int b = 0; b < m; b++) {
      sizeStart[maxSize - (start[b + 1] - start[b]) + 1]++;
    }
    for (int s = 1; s < sizeStart.length; s++) {
      sizeStart[s] += sizeStart[s - 1];
    }
    int[] order = new int[m];
    for (int b = 0; b < m; b++) {
      order[sizeStart[maxSize - (start[b + 1] - start[b])]++] = b;
    }
    return order;
  }

  /**
   * Where each taken position past {@code n} moves: to the free positions below {@code n}, in order
   * (PTHash's remapping, which makes the function minimal).
   */
  private static int[] remap(long[] taken, int n, int tableSize) {
    int[] remap = new int[tableSize - n];
    int freeSlot = 0;
    for (int pos = n; pos < tableSize; pos++) {
      if ((taken[pos >>> 6] & (1L << pos)) != 0) {
        while ((taken[freeSlot >>> 6] & (1L << freeSlot)) != 0) {
          freeSlot++;
        }
        remap[pos - n] = freeSlot++;
      }
    }
    return remap;
  }

  private static int searchPilot(
      long[] keys, int from, int size, int tableSize, long[] taken, int[] positions) {
    for (long pilot = 0; pilot < MAX_PILOT; pilot++) {
      long ph = pilot < PILOT_CACHE ? PILOT_HASHES[(int) pilot] : pilotHash(pilot);
      boolean fits = true;
      for (int i = 0; i < size && fits; i++) {
        int pos = position(keys[from + i], ph, tableSize);
        if ((taken[pos >>> 6] & (1L << pos)) != 0) {
          fits = false;
        } else {
          for (int j = 0; j < i; j++) {
            if (positions[j] == pos) {
              fits = false;
              break;
            }
          }
          positions[i] = pos;
        }
      }
      if (fits) {
        for (int i = 0; i < size; i++) {
          taken[positions[i] >>> 6] |= 1L << positions[i];
        }
        return (int) pilot;
      }
    }
    throw new PilotSearchException(size);
  }

  private static PerfectHash encode(int n, int tableSize, int m, int[] pilots, int[] remap) {
    int maxPilot = 0;
    for (int p : pilots) {
      maxPilot = Math.max(maxPilot, p);
    }
    int compactBits = PackedInts.bitsFor(maxPilot);
    int[] distinct = Arrays.stream(pilots).distinct().sorted().toArray();
    int dictionaryBits = PackedInts.bitsFor(distinct.length - 1);
    long compactCost = (long) m * compactBits;
    long dictionaryCost = (long) m * dictionaryBits + 32L * distinct.length;
    int remapBits = PackedInts.bitsFor(n - 1);
    long[] remapWords = PackedInts.pack(remap, remap.length, remapBits);
    if (compactCost <= dictionaryCost && !Boolean.getBoolean(PILOT_DICTIONARY_PROPERTY)) {
      return new PerfectHash(
          n,
          tableSize,
          m,
          ENCODING_COMPACT,
          compactBits,
          new int[0],
          PackedInts.pack(pilots, m, compactBits),
          remapBits,
          remapWords);
    }
    int[] indexes = new int[m];
    for (int b = 0; b < m; b++) {
      indexes[b] = Arrays.binarySearch(distinct, pilots[b]);
    }
    return new PerfectHash(
        n,
        tableSize,
        m,
        ENCODING_DICTIONARY,
        dictionaryBits,
        distinct,
        PackedInts.pack(indexes, m, dictionaryBits),
        remapBits,
        remapWords);
  }

  /**
   * The largest table a reader accepts for n keys: writers use ceil(n / 0.99) (n below 64 keys),
   * which is never more than this.
   */
  static long maxTableSize(int n) {
    return n + (n + 98L) / 99 + 1;
  }

  /** Writes the layout of FORMAT.md "Perfect hash". */
  public void writeTo(ByteWriter out) {
    out.u32(numKeys).u32(tableSize).u32(numBuckets);
    out.u8(encoding).u8(pilotBits).u8(remapBits).u8(0);
    out.u32(dictionary.length);
    for (int v : dictionary) {
      out.u32(v);
    }
    out.u32(pilotWords.length);
    for (long w : pilotWords) {
      out.u64(w);
    }
    out.u32(remapWords.length);
    for (long w : remapWords) {
      out.u64(w);
    }
  }

  /** Reads and validates the layout, so that no query can index out of bounds. */
  /**
   * FORMAT.md "Perfect hash": the bounds a reader checks of a header before it sizes anything by
   * them — empty, or keys, table and buckets in proportion, fields within their widths.
   */
  private static boolean shapeOk(
      int n, int tableSize, int m, int encoding, int pilotBits, int remapBits, int reserved) {
    boolean empty =
        n == 0
            && tableSize == 0
            && m == 0
            && encoding == ENCODING_COMPACT
            && pilotBits == 0
            && remapBits == 0;
    boolean sized =
        n > 0
            && tableSize >= n
            && tableSize <= maxTableSize(n)
            && m >= 1
            && m <= n
            && pilotBits <= 32
            && remapBits <= 32;
    return reserved == 0
        && (empty || sized)
        && (encoding == ENCODING_COMPACT || encoding == ENCODING_DICTIONARY);
  }

  public static PerfectHash readFrom(ByteReader in) throws CorruptArchiveException {
    long at = in.fileOffset();
    int n = in.count("perfect hash key count");
    int tableSize = in.count("perfect hash table size");
    int m = in.count("perfect hash bucket count");
    int encoding = in.u8("perfect hash encoding");
    int pilotBits = in.u8("pilot bits");
    int remapBits = in.u8("remap bits");
    int reserved = in.u8("reserved");
    if (!shapeOk(n, tableSize, m, encoding, pilotBits, remapBits, reserved)) {
      throw new CorruptArchiveException(
          in.file(),
          at,
          String.format(
              Locale.ROOT,
              "perfect hash header is inconsistent (keys %d, table %d, buckets %d, encoding %d,"
                  + " reserved %d)",
              n,
              tableSize,
              m,
              encoding,
              reserved));
    }
    int dictionarySize = in.count("pilot dictionary size");
    if (dictionarySize > m || dictionarySize > in.remaining() / 4) {
      throw in.corrupt("pilot dictionary of " + dictionarySize + " values for " + m + " buckets");
    }
    int[] dictionary = new int[dictionarySize];
    for (int i = 0; i < dictionarySize; i++) {
      dictionary[i] = in.u32("pilot dictionary value");
    }
    long[] pilotWords = readWords(in, PackedInts.wordCount(m, pilotBits), "pilot words");
    long[] remapWords =
        readWords(in, PackedInts.wordCount(tableSize - (long) n, remapBits), "remap words");
    if (encoding == ENCODING_DICTIONARY && m > 0) {
      // Every stored index must point into the dictionary.
      for (int b = 0; b < m; b++) {
        if (PackedInts.get(pilotWords, pilotBits, b) >= dictionarySize) {
          throw in.corrupt("pilot dictionary index out of range for bucket " + b);
        }
      }
    }
    PerfectHash hash =
        new PerfectHash(
            n, tableSize, m, encoding, pilotBits, dictionary, pilotWords, remapBits, remapWords);
    for (int i = 0; i < tableSize - n; i++) {
      if (PackedInts.get(remapWords, remapBits, i) >= n) {
        throw in.corrupt("remapped slot out of range at position " + (n + i));
      }
    }
    return hash;
  }

  /** The pilot search gave up on a bucket; building over differently hashed keys succeeds. */
  public static final class PilotSearchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PilotSearchException(int bucketSize) {
      super("no pilot found for a bucket of " + bucketSize + " keys");
    }
  }

  private static long[] readWords(ByteReader in, int expected, String what)
      throws CorruptArchiveException {
    int count = in.count(what + " count");
    if (count != expected) {
      throw in.corrupt(what + ": " + count + " words, expected " + expected);
    }
    if (count > in.remaining() / 8) {
      throw in.corrupt(what + ": " + count + " words, only " + in.remaining() + " bytes left");
    }
    long[] words = new long[count];
    for (int i = 0; i < count; i++) {
      words[i] = in.u64(what);
    }
    return words;
  }
}
