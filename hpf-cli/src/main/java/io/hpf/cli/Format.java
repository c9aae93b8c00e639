package io.hpf.cli;

import java.util.Locale;

/** Human-readable numbers for command output. */
final class Format {
  private Format() {}

  /** "1 entry", "2 entries": a count with its noun in the number it takes. */
  static String count(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /**
   * "12.0x fewer objects" or "2.2x more objects" for going from {@code before} to {@code after}.
   */
  static String objectRatio(long before, long after) {
    if (after == 0 || before == 0) {
      return after + " objects instead of " + before;
    }
    return before >= after
        ? String.format(java.util.Locale.ROOT, "%.1fx fewer objects", (double) before / after)
        : String.format(java.util.Locale.ROOT, "%.1fx more objects", (double) after / before);
  }
}
