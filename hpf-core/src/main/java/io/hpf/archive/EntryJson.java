package io.hpf.archive;

import io.hpf.archive.model.EntryInfo;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one JSON writer of hpf's tools and the one JSON shape of an entry's row, shared by {@code hpf
 * ls --json}, the server's listings and the benchmarks' lines, so that every tool escapes strings
 * alike and a row reads the same wherever it comes from:
 *
 * <pre>{"name":…,"length":…,"mtime":…,"modified":"…","mode":…,"attributes":{…}}</pre>
 *
 * with, where the row's place is asked for, {@code "stored","codec","part","offset"} and for a
 * member of a group {@code "member","members"} (FORMAT.md "Catalog"). Attributes are in key order.
 */
public final class EntryJson {
  private EntryJson() {}

  /** Appends {@code s} as a JSON string literal, quotes included. */
  public static StringBuilder string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          // U+2028 and U+2029 end lines in JavaScript: escaped, a line of JSON stays one line.
          if (c < 0x20 || c == 0x2028 || c == 0x2029) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** {@code s} as a JSON string literal. */
  public static String string(String s) {
    return string(new StringBuilder(s.length() + 2), s).toString();
  }

  /**
   * Appends the row of {@code e} as one JSON object.
   *
   * @param place whether to add where and how the entry is stored
   */
  public static StringBuilder row(StringBuilder out, EntryInfo e, boolean place) {
    out.append("{\"name\":");
    string(out, e.name());
    out.append(",\"length\":").append(e.rawLength());
    out.append(",\"mtime\":").append(e.mtimeMillis());
    out.append(",\"modified\":\"").append(Instant.ofEpochMilli(e.mtimeMillis())).append('"');
    out.append(",\"mode\":").append(e.mode());
    if (place) {
      out.append(",\"stored\":").append(e.storedLength());
      out.append(",\"codec\":");
      string(out, e.codec().displayName());
      out.append(",\"part\":").append(e.partId());
      out.append(",\"offset\":").append(e.offset());
      if (e.inGroup()) { // FORMAT.md "Group": the offset is the group's
        out.append(",\"member\":").append(e.member()).append(",\"members\":").append(e.members());
      }
    }
    out.append(",\"attributes\":{");
    boolean first = true;
    for (Map.Entry<String, String> a : new TreeMap<>(e.attributes()).entrySet()) {
      if (!first) {
        out.append(',');
      }
      first = false;
      string(out, a.getKey()).append(':');
      string(out, a.getValue());
    }
    return out.append("}}");
  }
}
