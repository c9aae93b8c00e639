package io.hpf.server.archives;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.util.Iterator;

/**
 * One page of the names under a prefix, in byte order, from a point on: with a delimiter, names
 * with the delimiter again after the prefix are rolled up into one common prefix (up to and with
 * the delimiter) and the catalogs are entered again past it, never read through it, so a page costs
 * O(log n + page) block reads however many names a common prefix holds.
 */
public final class PrefixWalk {
  private PrefixWalk() {}

  /** What a walk hands out, in order. */
  public interface Visitor {
    void entry(EntryInfo entry);

    void commonPrefix(String prefix);
  }

  /**
   * Where a page ended.
   *
   * @param truncated whether more names follow
   * @param last the last name or common prefix handed out (null if none)
   * @param lastWasPrefix whether {@code last} is a common prefix
   */
  public record Page(boolean truncated, String last, boolean lastWasPrefix) {}

  /**
   * Where a walk resumes after {@code last}: past every name under it when it was a common prefix,
   * else just after it ({@code last} + NUL, the least string after a name: names hold no NUL).
   */
  public static String after(String last, boolean wasPrefix) {
    return wasPrefix ? pastPrefix(last) : last + '\0';
  }

  /**
   * Walks up to {@code limit} names and common prefixes under {@code prefix}, from {@code from} (at
   * least the prefix).
   *
   * @param delimiter null, or a string ending in an ASCII character (see {@link #pastPrefix})
   */
  public static Page walk(
      ArchiveReader reader,
      String prefix,
      String from,
      String delimiter,
      int limit,
      Visitor visitor)
      throws IOException {
    Iterator<EntryInfo> it = reader.list(prefix, from.compareTo(prefix) < 0 ? prefix : from);
    String last = null;
    boolean lastWasPrefix = false;
    int count = 0;
    while (it.hasNext()) {
      EntryInfo e = it.next();
      if (count == limit) {
        return new Page(true, last, lastWasPrefix);
      }
      String name = e.name();
      int cut = delimiter == null ? -1 : name.indexOf(delimiter, prefix.length());
      count++;
      if (cut >= 0) {
        last = name.substring(0, cut + delimiter.length());
        lastWasPrefix = true;
        visitor.commonPrefix(last);
        it = reader.list(prefix, pastPrefix(last));
      } else {
        last = name;
        lastWasPrefix = false;
        visitor.entry(e);
      }
    }
    return new Page(false, last, lastWasPrefix);
  }

  /**
   * The least string after every name that starts with {@code p}: its last character, ASCII, moved
   * up by one ('/' becomes '0'). Byte order and Java's string order agree on it.
   */
  public static String pastPrefix(String p) {
    char c = p.charAt(p.length() - 1);
    if (c >= 0x7f) {
      throw new IllegalArgumentException("a common prefix must end in an ASCII character");
    }
    return p.substring(0, p.length() - 1) + (char) (c + 1);
  }

  /** Whether a delimiter can roll names up (it ends in an ASCII character other than DEL). */
  public static boolean usableDelimiter(String delimiter) {
    return !delimiter.isEmpty() && delimiter.charAt(delimiter.length() - 1) < 0x7f;
  }
}
