package io.hpf.internal.index;

/**
 * Fixed-width unsigned integers packed into little-endian 64-bit words (FORMAT.md "Packed
 * integers"): value i occupies bits [i*width, (i+1)*width) counting from bit 0 of word 0, and may
 * straddle two words. Width 0 means every value is 0 and no words are stored.
 */
final class PackedInts {
  private PackedInts() {}

  static int bitsFor(long maxValue) {
    return maxValue <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(maxValue);
  }

  static int wordCount(long count, int width) {
    return (int) ((count * width + 63) / 64);
  }

  static long[] pack(int[] values, int count, int width) {
    long[] words = new long[wordCount(count, width)];
    if (width == 0) {
      return words;
    }
    for (int i = 0; i < count; i++) {
      long bit = (long) i * width;
      int word = (int) (bit >>> 6);
      int shift = (int) (bit & 63);
      long v = values[i] & 0xFFFFFFFFL;
      words[word] |= v << shift;
      if (shift + width > 64) {
        words[word + 1] |= v >>> (64 - shift);
      }
    }
    return words;
  }

  static int get(long[] words, int width, long index) {
    if (width == 0) {
      return 0;
    }
    long bit = index * width;
    int word = (int) (bit >>> 6);
    int shift = (int) (bit & 63);
    long v = words[word] >>> shift;
    if (shift + width > 64) {
      v |= words[word + 1] << (64 - shift);
    }
    return (int) (v & ((1L << width) - 1));
  }
}
