package io.hpf.bench.scale;

import java.nio.charset.StandardCharsets;

/**
 * The scale benchmark's entries, made from their number alone (no files on disk): names shaped like
 * the paths of a log archive, 1,000 to a directory ({@code
 * logs/host-0042/2024-03-17/05/app-000123456.log}), sizes spread around the asked size (half of it
 * to one and a half), content a log line repeated. The same number always gives the same entry.
 */
final class GeneratedEntries {
  /** Names in a directory: a listing of one directory is a listing of about a thousand names. */
  static final int PER_DIRECTORY = 1000;

  /** Directories the names can make: 1,000 hosts x 8,064 hours. */
  static final long MAX_ENTRIES = 1000L * 28 * 12 * 24 * PER_DIRECTORY;

  private final int size;
  private final byte[] buffer;

  GeneratedEntries(int size) {
    this.size = size;
    this.buffer = new byte[size + size / 2 + 1];
  }

  /** The directory (with its trailing '/') of entry {@code i}. */
  static String directory(long i) {
    long d = i / PER_DIRECTORY;
    long hours = d / 1000;
    StringBuilder s = new StringBuilder(48).append("logs/host-");
    pad(s, d % 1000, 4).append("/2024-");
    pad(s, (hours / 28) % 12 + 1, 2).append('-');
    pad(s, hours % 28 + 1, 2).append('/');
    pad(s, (hours / 336) % 24, 2).append('/');
    return s.toString();
  }

  /** The name of entry {@code i}. */
  static String name(long i) {
    StringBuilder s = new StringBuilder(64).append(directory(i)).append("app-");
    return pad(s, i, 9).append(".log").toString();
  }

  /** A name in entry {@code i}'s directory that no entry has. */
  static String missing(long i) {
    return directory(i) + "app-" + i + ".missing";
  }

  private static StringBuilder pad(StringBuilder s, long n, int width) {
    String digits = Long.toString(n);
    for (int k = digits.length(); k < width; k++) {
      s.append('0');
    }
    return s.append(digits);
  }

  /** The length of entry {@code i}'s content. */
  int length(long i) {
    long h = i * 0x9E3779B97F4A7C15L;
    return (int) (size / 2 + Long.remainderUnsigned(h >>> 17, size + 1L));
  }

  /** Entry {@code i}'s content, in a buffer reused by the next call: its first length(i) bytes. */
  byte[] content(long i) {
    int length = length(i);
    byte[] line =
        ("2024-03-17T05:00:00Z host app[" + i + "]: request served in " + (i % 997) + " ms\n")
            .getBytes(StandardCharsets.US_ASCII);
    for (int at = 0; at < length; at += line.length) {
      System.arraycopy(line, 0, buffer, at, Math.min(line.length, length - at));
    }
    return buffer;
  }
}
