package io.hpf.server.http;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryInfo;
import io.hpf.archive.EntryJson;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.util.Iterator;

/**
 * A listing as JSON: {@code GET /<archive>/[<dir>/]?prefix=&delimiter=/&after=&limit=}. Names under
 * the prefix in byte order; with the '/' delimiter, names below a further '/' are rolled up into
 * one common prefix and the catalogs are entered again past it (never read through it), so a page
 * costs O(log n + page) block reads. Pages end with {@code "next"}: the cursor to pass as {@code
 * after} for the following page; the last page has none.
 */
final class ListingResponder {
  static final int DEFAULT_LIMIT = 1000;
  static final int MAX_LIMIT = 10_000;

  void respond(Exchange ex, String archive, String directory, RequestPath path) throws IOException {
    ex.route("list");
    int limit;
    try {
      limit = path.intParameter("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
    } catch (RequestPath.BadPathException e) {
      ex.error(HttpResponseStatus.BAD_REQUEST, e.getMessage());
      return;
    }
    String prefix = directory + nullToEmpty(path.parameter("prefix"));
    String delimiter = path.parameter("delimiter");
    if (delimiter != null && !delimiter.equals("/")) {
      ex.error(HttpResponseStatus.BAD_REQUEST, "the only delimiter is '/'");
      return;
    }
    boolean rollUp = delimiter != null;
    String after = path.parameter("after");
    ArchiveReader reader = ex.lease().reader();
    StringBuilder entries = new StringBuilder(limit * 96);
    StringBuilder prefixes = new StringBuilder();
    String from = after == null || after.compareTo(prefix) < 0 ? prefix : justAfter(after);
    Iterator<EntryInfo> it = reader.list(prefix, from);
    String last = null;
    int count = 0;
    boolean more = false;
    while (it.hasNext()) {
      EntryInfo e = it.next();
      String name = e.name();
      int cut = rollUp ? name.indexOf('/', prefix.length()) : -1;
      if (count == limit) {
        more = true;
        break;
      }
      if (cut >= 0) {
        String common = name.substring(0, cut + 1);
        separate(prefixes);
        EntryJson.string(prefixes, common);
        last = common;
        count++;
        it = reader.list(prefix, justAfter(common)); // past everything under it
        continue;
      }
      separate(entries);
      writeEntry(entries, e);
      last = name;
      count++;
    }
    ex.sendText(
        HttpResponseStatus.OK,
        "application/json",
        page(archive, prefix, rollUp, entries, prefixes, more ? last : null));
  }

  /** The page's JSON (docs/SERVER.md); {@code next} null on the last page. */
  private static String page(
      String archive,
      String prefix,
      boolean rollUp,
      StringBuilder entries,
      StringBuilder prefixes,
      String next) {
    StringBuilder out = new StringBuilder(entries.length() + prefixes.length() + 256);
    out.append("{\"archive\":");
    EntryJson.string(out, archive);
    out.append(",\"prefix\":");
    EntryJson.string(out, prefix);
    if (rollUp) {
      out.append(",\"delimiter\":\"/\"");
    }
    out.append(",\"entries\":[").append(entries).append("]");
    out.append(",\"prefixes\":[").append(prefixes).append("]");
    if (next != null) {
      out.append(",\"next\":");
      EntryJson.string(out, next);
    }
    return out.append("}\n").toString();
  }

  private static void writeEntry(StringBuilder out, EntryInfo e) {
    EntryJson.row(out, e, false);
  }

  /**
   * The least string after {@code s} and every name starting with it when it ends with '/': '/' is
   * followed by '0' in byte order. Else {@code s} + NUL, the least string after a name (names hold
   * no NUL).
   */
  static String justAfter(String s) {
    if (s.endsWith("/")) {
      return s.substring(0, s.length() - 1) + '0';
    }
    return s + '\0';
  }

  private static void separate(StringBuilder sb) {
    if (sb.length() > 0) {
      sb.append(',');
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
