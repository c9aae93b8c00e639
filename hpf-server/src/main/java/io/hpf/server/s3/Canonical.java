package io.hpf.server.s3;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * SigV4's canonical forms: the path, query and headers of a request as the signer saw them. What
 * arrived is decoded, then encoded again the one way SigV4 allows (every byte but {@code
 * A-Za-z0-9-_.~} as %XX, upper-case hex), so clients that escape differently sign the same text.
 * Its query decoding is also how the S3 routes read their parameters: one reading of a request.
 */
public final class Canonical {
  private Canonical() {}

  /** The path, each byte encoded once ('/' kept): S3 does not normalize it. */
  static String path(String rawPath) {
    return encode(decode(rawPath, false), true);
  }

  /**
   * The query: parameters encoded, sorted by name then value, joined by '&'; a presigned URL's own
   * signature left out.
   */
  static String query(List<String[]> parameters) {
    List<String[]> pairs = new ArrayList<>(parameters.size());
    for (String[] p : parameters) {
      if (!p[0].equals("X-Amz-Signature")) {
        pairs.add(new String[] {encode(p[0], false), encode(p[1], false)});
      }
    }
    // By name, then value: not by the joined text, where "a=" would sort after "a-b=".
    pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    StringBuilder out = new StringBuilder(256);
    for (String[] p : pairs) {
      if (out.length() > 0) {
        out.append('&');
      }
      out.append(p[0]).append('=').append(p[1]);
    }
    return out.toString();
  }

  /** A query's parameters, decoded ('+' a space; a '%' that starts no escape kept as it is). */
  public static Map<String, String> parameters(String rawQuery) {
    return queryParameters(split(rawQuery));
  }

  /** The query's parameters, decoded; the first value of each name. */
  static Map<String, String> queryParameters(List<String[]> parameters) {
    Map<String, String> out = new HashMap<>();
    for (String[] p : parameters) {
      out.putIfAbsent(p[0], p[1]);
    }
    return out;
  }

  /**
   * The signed headers, one {@code name:value\n} each in the order given (the client's, sorted):
   * several values joined by ',', each trimmed, runs of spaces made one.
   */
  static String headers(List<String> names, Function<String, List<String>> values) {
    StringBuilder out = new StringBuilder(256);
    for (String name : names) {
      out.append(name).append(':');
      List<String> vs = values.apply(name);
      for (int i = 0; i < vs.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        String v = vs.get(i).strip();
        out.append(v.contains("  ") ? v.replaceAll(" {2,}", " ") : v);
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The fields of {@code AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...}. */
  static Map<String, String> authorizationFields(String authorization) {
    Map<String, String> fields = new HashMap<>();
    String rest = authorization.substring(authorization.indexOf(' ') + 1);
    for (String field : rest.split(",")) {
      int eq = field.indexOf('=');
      if (eq > 0) {
        fields.putIfAbsent(field.substring(0, eq).strip(), field.substring(eq + 1).strip());
      }
    }
    return fields;
  }

  /** The query's parameters in order, each {name, value} decoded. */
  static List<String[]> split(String rawQuery) {
    List<String[]> out = new ArrayList<>();
    if (rawQuery == null) {
      return out;
    }
    for (int at = 0; at < rawQuery.length(); ) {
      int amp = rawQuery.indexOf('&', at);
      int end = amp < 0 ? rawQuery.length() : amp;
      if (end > at) {
        int eq = rawQuery.indexOf('=', at);
        boolean valued = eq >= 0 && eq < end;
        String name = rawQuery.substring(at, valued ? eq : end);
        String value = valued ? rawQuery.substring(eq + 1, end) : "";
        out.add(new String[] {decode(name, true), decode(value, true)});
      }
      at = end + 1;
    }
    return out;
  }

  /**
   * Percent-decoding as UTF-8; in a query '+' is a space, as forms write it. A '%' that starts no
   * escape is kept as it is (the path's own check refuses it later).
   */
  static String decode(String s, boolean plusIsSpace) {
    if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
      return s;
    }
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int hi = c == '%' && i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = hi >= 0 ? Character.digit(s.charAt(i + 2), 16) : -1;
      if (lo >= 0) {
        out[n++] = (byte) (hi * 16 + lo);
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        out[n++] = ' ';
      } else if (c < 0x80) {
        out[n++] = (byte) c;
      } else {
        int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
        byte[] b = s.substring(i, end).getBytes(StandardCharsets.UTF_8);
        System.arraycopy(b, 0, out, n, b.length);
        n += b.length;
        i = end - 1;
      }
    }
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private static boolean unreservedOnly(String s, boolean keepSlash) {
    for (int i = 0; i < s.length(); i++) {
      if (!unreserved(s.charAt(i), keepSlash)) {
        return false;
      }
    }
    return true;
  }

  /** {@code A-Za-z0-9-_.~}, and '/' in a path. */
  private static boolean unreserved(int c, boolean keepSlash) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.'
        || c == '~'
        || (c == '/' && keepSlash);
  }

  /** SigV4's URI encoding: unreserved characters as they are, every other byte as %XX. */
  static String encode(String s, boolean keepSlash) {
    if (unreservedOnly(s, keepSlash)) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (unreserved(c, keepSlash)) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
      }
    }
    return out.toString();
  }
}
