package io.hpf.testing;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Random archive contents for conformance tests: a sorted {@code Map<String, byte[]>} (the model
 * every way of reading an archive is compared with). Sizes cluster on the edges that break readers:
 * 0, 1, around 4 KiB and 64 KiB buffers; names mix ASCII, nested paths and unicode.
 */
public final class ArchiveModel {
  private static final int[] EDGE_SIZES = {0, 1, 2, 4095, 4096, 4097, 65535, 65536, 65537};
  private static final String[] WORDS = {
    "log",
    "img",
    "data",
    "2024",
    "part",
    "x",
    "ünïcödé",
    "日本語",
    "emoji😀",
    "space name",
    "a.b.c",
    "Ω"
  };

  private ArchiveModel() {}

  /** {@code count} entries; one in 20 of an edge size, the rest 0-8 KiB, half compressible. */
  public static TreeMap<String, byte[]> random(int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    while (model.size() < count) {
      String name = randomName(random, model.size());
      int size =
          random.nextInt(20) == 0
              ? EDGE_SIZES[random.nextInt(EDGE_SIZES.length)]
              : random.nextInt(8192);
      model.put(name, content(random, size));
    }
    return model;
  }

  /** Unsigned UTF-8 byte order: the archive's listing order. */
  public static int compareUtf8(String a, String b) {
    return java.util.Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  public static String randomName(SplittableRandom random, int serial) {
    StringBuilder name = new StringBuilder();
    int depth = random.nextInt(4);
    for (int d = 0; d < depth; d++) {
      name.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(5)).append('/');
    }
    name.append(WORDS[random.nextInt(WORDS.length)]).append('-').append(serial);
    return name.toString();
  }

  /** Half text-like (compressible), half random (incompressible). */
  public static byte[] content(SplittableRandom random, int size) {
    byte[] bytes = new byte[size];
    if (random.nextBoolean()) {
      random.nextBytes(bytes);
    } else {
      String text = "2024-01-01T00:00:00 INFO request served path=/api/v1/items status=200\n";
      for (int i = 0; i < size; i++) {
        bytes[i] = (byte) (i % 97 == 0 ? 'a' + random.nextInt(26) : text.charAt(i % text.length()));
      }
    }
    return bytes;
  }

  /**
   * About {@code length} bytes of numbered words drawn at random: text whose zstd frame is smaller
   * at a higher level, for tests of the level an archive keeps.
   */
  public static byte[] words(long seed, int length) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < length) {
      text.append("word").append(random.nextInt(500)).append(random.nextInt(9) == 0 ? '\n' : ' ');
    }
    return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
