package io.hpf.archive.model;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * User attributes of an entry in their one written order: keys sorted by their UTF-8 bytes
 * (FORMAT.md "Entry"), so that the same input always gives the same bytes on disk.
 */
public final class Attributes {
  /** Code point order, which is the unsigned byte order of the UTF-8 encodings. */
  public static final Comparator<String> UTF8_ORDER = Attributes::compareUtf8;

  private Attributes() {}

  /** An unmodifiable copy of {@code attributes}, iterating in {@link #UTF8_ORDER}. */
  public static SortedMap<String, String> sorted(Map<String, String> attributes) {
    if (attributes.isEmpty()) {
      return Collections.emptySortedMap();
    }
    if (attributes instanceof SortedMap<String, String> s
        && s.comparator() == UTF8_ORDER
        && isUnmodifiable(s)) {
      return s;
    }
    TreeMap<String, String> copy = new TreeMap<>(UTF8_ORDER);
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      copy.put(
          java.util.Objects.requireNonNull(e.getKey(), "attribute key"),
          java.util.Objects.requireNonNull(e.getValue(), "attribute value"));
    }
    return Collections.unmodifiableSortedMap(copy);
  }

  private static final Class<?> UNMODIFIABLE_SORTED =
      Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();

  private static boolean isUnmodifiable(SortedMap<String, String> map) {
    return map.getClass() == UNMODIFIABLE_SORTED;
  }

  private static int compareUtf8(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
