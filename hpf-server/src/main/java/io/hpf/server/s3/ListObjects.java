package io.hpf.server.s3;

import io.hpf.archive.model.EntryInfo;
import io.hpf.server.archives.PrefixWalk;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A ListObjects request (version 2 with {@code list-type=2}, else version 1) and its answer:
 * parameters checked as S3 checks them, where the page starts, and the ListBucketResult.
 * Continuation tokens are the last name or common prefix of the page before, marked which it was,
 * in base64url: opaque to clients, and nothing is kept on the server.
 */
public final class ListObjects {
  public static final int MAX_KEYS = 1000;

  /** A token is a name (at most 4 KiB as UTF-8) and a mark, in base64. */
  private static final int MAX_TOKEN_CHARS = 8 * 1024;

  private final boolean v2;
  private final String prefix;
  private final String delimiter;
  private final int maxKeys;
  private final boolean urlEncoded;
  private final String startAfter;
  private final String token;
  private final String marker;
  private final String from;

  private ListObjects(Map<String, String> q) throws S3Exception {
    String listType = q.get("list-type");
    if (listType != null && !listType.equals("2")) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "list-type must be 2 (or absent)");
    }
    v2 = listType != null;
    prefix = q.getOrDefault("prefix", "");
    String d = q.get("delimiter");
    delimiter = d == null || d.isEmpty() ? null : d;
    if (delimiter != null && !PrefixWalk.usableDelimiter(delimiter)) {
      throw new S3Exception(
          S3Error.INVALID_ARGUMENT, "the delimiter must end in an ASCII character (as '/' does)");
    }
    maxKeys = maxKeys(q.get("max-keys"));
    String encoding = q.get("encoding-type");
    if (encoding != null && !encoding.equals("url")) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "encoding-type must be 'url'");
    }
    urlEncoded = encoding != null;
    startAfter = v2 ? q.get("start-after") : null;
    token = v2 ? q.get("continuation-token") : null;
    marker = v2 ? null : q.get("marker");
    from = startingPoint();
  }

  /** Reads a request's query parameters (decoded). */
  public static ListObjects of(Map<String, String> query) throws S3Exception {
    return new ListObjects(query);
  }

  public String prefix() {
    return prefix;
  }

  /** The delimiter, or null for none. */
  public String delimiter() {
    return delimiter;
  }

  public int maxKeys() {
    return maxKeys;
  }

  /** The least name this page may hold. */
  public String from() {
    return from;
  }

  private String startingPoint() throws S3Exception {
    if (token != null) {
      return resume(token);
    }
    String after = v2 ? startAfter : marker;
    if (after == null || after.isEmpty()) {
      return prefix;
    }
    boolean isPrefix =
        delimiter != null && after.endsWith(delimiter) && after.length() > prefix.length();
    return PrefixWalk.after(after, isPrefix); // (the walk starts at the prefix if this is before)
  }

  private static String resume(String token) throws S3Exception {
    try {
      if (token.length() > MAX_TOKEN_CHARS) {
        throw new IllegalArgumentException();
      }
      String t = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      if (t.length() < 2 || (t.charAt(0) != 'p' && t.charAt(0) != 'k')) {
        throw new IllegalArgumentException();
      }
      return PrefixWalk.after(t.substring(1), t.charAt(0) == 'p');
    } catch (IllegalArgumentException e) {
      throw new S3Exception(S3Error.INVALID_ARGUMENT, "the continuation token is not one of ours");
    }
  }

  private static String token(PrefixWalk.Page page) {
    String t = (page.lastWasPrefix() ? "p" : "k") + page.last();
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(t.getBytes(StandardCharsets.UTF_8));
  }

  private static int maxKeys(String value) throws S3Exception {
    if (value == null) {
      return MAX_KEYS;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= 0) {
        return Math.min(n, MAX_KEYS);
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new S3Exception(S3Error.INVALID_ARGUMENT, "max-keys must be a number from 0");
  }

  /** The ListBucketResult of a page walked from {@link #from()}. */
  public String result(
      String bucket, List<EntryInfo> contents, List<String> prefixes, PrefixWalk.Page page) {
    StringBuilder out = new StringBuilder(256 + 200 * contents.size() + 64 * prefixes.size());
    out.append(S3Xml.HEAD).append("<ListBucketResult").append(S3Xml.NAMESPACE).append('>');
    S3Xml.element(out, "Name", bucket);
    text(out, "Prefix", prefix);
    if (v2) {
      if (startAfter != null) {
        text(out, "StartAfter", startAfter);
      }
      if (token != null) {
        S3Xml.element(out, "ContinuationToken", token);
      }
      S3Xml.element(out, "KeyCount", contents.size() + prefixes.size());
    } else {
      text(out, "Marker", marker == null ? "" : marker);
    }
    S3Xml.element(out, "MaxKeys", maxKeys);
    if (delimiter != null) {
      text(out, "Delimiter", delimiter);
    }
    if (urlEncoded) {
      S3Xml.element(out, "EncodingType", "url");
    }
    S3Xml.element(out, "IsTruncated", String.valueOf(page.truncated()));
    if (page.truncated()) {
      if (v2) {
        S3Xml.element(out, "NextContinuationToken", token(page));
      } else {
        text(out, "NextMarker", page.last());
      }
    }
    for (EntryInfo e : contents) {
      out.append("<Contents>");
      text(out, "Key", e.name());
      S3Xml.element(out, "LastModified", S3Xml.time(e.mtimeMillis()));
      S3Xml.element(out, "Size", e.rawLength());
      out.append("<StorageClass>STANDARD</StorageClass></Contents>");
    }
    for (String p : prefixes) {
      out.append("<CommonPrefixes>");
      text(out, "Prefix", p);
      out.append("</CommonPrefixes>");
    }
    return out.append("</ListBucketResult>\n").toString();
  }

  /** A name or prefix: URL-encoded ('/' kept) when the client asked for encoding-type=url. */
  private void text(StringBuilder out, String element, String value) {
    S3Xml.element(out, element, urlEncoded ? Canonical.encode(value, true) : value);
  }
}
