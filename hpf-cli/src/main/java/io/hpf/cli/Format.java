package io.hpf.cli;

import java.util.Locale;

/** Human-readable numbers and JSON strings for command output. */
final class Format {
  private Format() {}

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

  /** A JSON string literal. */
  static String json(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
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
