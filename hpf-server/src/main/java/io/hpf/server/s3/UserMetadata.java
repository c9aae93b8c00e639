package io.hpf.server.s3;

import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * S3's user metadata, the {@code x-amz-meta-*} headers of a PUT, kept as the entry's attributes
 * (FORMAT.md "Entry"): a header {@code x-amz-meta-camera: nikon} is the attribute {@code camera} =
 * {@code nikon}, and every attribute of an entry comes back on GET and HEAD as such a header,
 * whoever wrote it. As S3 does: names are lowercased; a value a header cannot carry as it is (not
 * printable ASCII) goes out encoded as RFC 2047 ({@code =?UTF-8?B?...?=}) and is taken in decoded
 * so; the names and values together are at most {@link #MAX_BYTES} bytes of UTF-8.
 */
public final class UserMetadata {
  /** The headers' common start. */
  public static final String PREFIX = "x-amz-meta-";

  /** S3's bound on a request's user metadata: keys and values, in UTF-8 bytes. */
  public static final int MAX_BYTES = 2048;

  private UserMetadata() {}

  /** The user metadata of a request, as attributes; none is an empty map. */
  public static Map<String, String> of(HttpHeaders headers) throws S3Exception {
    Map<String, String> attributes = new TreeMap<>();
    long bytes = 0;
    for (Map.Entry<String, String> h : headers) {
      String name = h.getKey().toLowerCase(Locale.ROOT);
      if (!name.startsWith(PREFIX)) {
        continue;
      }
      String key = name.substring(PREFIX.length());
      if (key.isEmpty()) {
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "a header x-amz-meta- with no name");
      }
      String value = decoded(h.getValue().strip());
      attributes.merge(key, value, (first, next) -> first + "," + next); // repeated: one, joined
      bytes += utf8Length(key) + utf8Length(value);
    }
    if (bytes > MAX_BYTES) {
      throw new S3Exception(
          S3Error.METADATA_TOO_LARGE,
          "user metadata of " + bytes + " bytes; at most " + MAX_BYTES + " are taken");
    }
    return attributes;
  }

  /** Sets {@code attributes} on a response as x-amz-meta-* headers (names a header can have). */
  public static void addTo(HttpHeaders headers, Map<String, String> attributes) {
    attributes.forEach(
        (key, value) -> {
          if (isToken(key)) {
            headers.set(PREFIX + key.toLowerCase(Locale.ROOT), encoded(value));
          }
        });
  }

  /**
   * A value as a header carries it: printable ASCII as it is, anything else RFC 2047 encoded, and
   * so a value that starts or ends with a space (which a header's value cannot: it is trimmed).
   */
  static String encoded(String value) {
    boolean padded =
        !value.isEmpty() && (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (padded || c < 0x20 || c > 0x7E) {
        return "=?UTF-8?B?"
            + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8))
            + "?=";
      }
    }
    return value;
  }

  /** A header's value, an RFC 2047 B-encoded UTF-8 word decoded; anything else as it is. */
  static String decoded(String value) {
    String start = "=?utf-8?b?";
    if (value.length() > start.length() + 2
        && value.regionMatches(true, 0, start, 0, start.length())
        && value.endsWith("?=")) {
      try {
        byte[] raw =
            Base64.getDecoder().decode(value.substring(start.length(), value.length() - 2));
        String text = new String(raw, StandardCharsets.UTF_8);
        if (!text.contains("\uFFFD")) {
          return text;
        }
      } catch (IllegalArgumentException notBase64) {
        // kept as sent
      }
    }
    return value;
  }

  /** Whether a name can be a header's (an HTTP token), so that it can be sent back as one. */
  private static boolean isToken(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
