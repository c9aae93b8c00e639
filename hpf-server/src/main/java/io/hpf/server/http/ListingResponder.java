package io.hpf.server.http;

import io.hpf.archive.EntryJson;
import io.hpf.archive.model.EntryInfo;
import io.hpf.server.archives.PrefixWalk;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;

/**
 * A listing as JSON: {@code GET /<archive>/[<dir>/]?prefix=&delimiter=/&after=&limit=}. Names under
 * the prefix in byte order; with the '/' delimiter, names below a further '/' are rolled up into
 * one common prefix ({@link PrefixWalk}). Pages end with {@code "next"}: the cursor to pass as
 * {@code after} for the following page; the last page has none.
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
    StringBuilder entries = new StringBuilder(limit * 96);
    StringBuilder prefixes = new StringBuilder();
    // A name ends in no '/': a cursor that does was a common prefix.
    String from =
        after == null || after.compareTo(prefix) < 0
            ? prefix
            : PrefixWalk.after(after, after.endsWith("/"));
    PrefixWalk.Page page =
        PrefixWalk.walk(
            ex.lease().reader(),
            prefix,
            from,
            delimiter,
            limit,
            new PrefixWalk.Visitor() {
              @Override
              public void entry(EntryInfo e) {
                separate(entries);
                EntryJson.row(entries, e, false);
              }

              @Override
              public void commonPrefix(String common) {
                separate(prefixes);
                EntryJson.string(prefixes, common);
              }
            });
    ex.sendText(
        HttpResponseStatus.OK,
        "application/json",
        page(archive, prefix, rollUp, entries, prefixes, page.truncated() ? page.last() : null));
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

  private static void separate(StringBuilder sb) {
    if (sb.length() > 0) {
      sb.append(',');
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
