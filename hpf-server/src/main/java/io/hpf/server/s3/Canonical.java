package io.hpf.server.s3;

import java.io.ByteArrayOutputStream;
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
 */
final class Canonical {
  private Canonical() {}

  /** The path, each byte encoded once ('/' kept): S3 does not normalize it. */
  static String path(String rawPath) {
    return encode(decode(rawPath, false), true);
  }

  /**
   * The query: parameters encoded, sorted by name then value, joined by '&'; a presigned URL's own
   * signature left out.
   */
  static String query(String rawQuery) {
    List<String> pairs = new ArrayList<>();
    for (String[] p : split(rawQuery)) {
      if (!p[0].equals("X-Amz-Signature")) {
        pairs.add(encode(p[0], false) + '=' + encode(p[1], false));
      }
    }
    // By name, then value: not by the joined text, where "a=" would sort after "a-b=".
    pairs.sort(
        (a, b) -> {
          int c = a.substring(0, a.indexOf('=')).compareTo(b.substring(0, b.indexOf('=')));
          return c != 0 ? c : a.compareTo(b);
        });
    return String.join("&", pairs);
  }

  /** The query's parameters, decoded; the first value of each name. */
  static Map<String, String> queryParameters(String rawQuery) {
    Map<String, String> out = new HashMap<>();
    for (String[] p : split(rawQuery)) {
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
        out.append(vs.get(i).strip().replaceAll(" {2,}", " "));
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

  private static List<String[]> split(String rawQuery) {
    List<String[]> out = new ArrayList<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String piece : rawQuery.split("&")) {
      if (piece.isEmpty()) {
        continue;
      }
      int eq = piece.indexOf('=');
      String name = eq < 0 ? piece : piece.substring(0, eq);
      String value = eq < 0 ? "" : piece.substring(eq + 1);
      out.add(new String[] {decode(name, true), decode(value, true)});
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
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
      int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
      if (c == '%' && hi >= 0 && lo >= 0) {
        out.write(hi * 16 + lo);
        i += 2;
      } else if (c == '+' && plusIsSpace) {
        out.write(' ');
      } else {
        int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
        byte[] b = s.substring(i, end).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        i = end - 1;
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  /** SigV4's URI encoding: unreserved characters as they are, every other byte as %XX. */
  static String encode(String s, boolean keepSlash) {
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean unreserved =
          (c >= 'A' && c <= 'Z')
              || (c >= 'a' && c <= 'z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '.'
              || c == '~'
              || (c == '/' && keepSlash);
      if (unreserved) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
      }
    }
    return out.toString();
  }
}
