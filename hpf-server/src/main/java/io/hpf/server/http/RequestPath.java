package io.hpf.server.http;

import io.hpf.archive.ArchiveFormat;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A request target, decoded once and checked: the path (percent-decoding applied once, as UTF-8)
 * and the query parameters. Anything that could step outside an archive or name no entry is refused
 * here, before any archive is looked at: a '.' or '..' component in any encoding, an absolute or
 * empty component, NUL and other control characters, invalid UTF-8, and paths longer than a name
 * may be.
 */
final class RequestPath {
  private final String path;
  private final Map<String, List<String>> parameters;

  private RequestPath(String path, Map<String, List<String>> parameters) {
    this.path = path;
    this.parameters = parameters;
  }

  /** Thrown for a target that is refused; the message says why, for a 400. */
  static final class BadPathException extends Exception {
    private static final long serialVersionUID = 1L;

    BadPathException(String message) {
      super(message);
    }
  }

  static RequestPath parse(String uri) throws BadPathException {
    if (uri.isEmpty() || uri.charAt(0) != '/') {
      throw new BadPathException("the request target must be a path starting with '/'");
    }
    int query = uri.indexOf('?');
    String rawPath = query < 0 ? uri : uri.substring(0, query);
    checkEscapes(rawPath);
    QueryStringDecoder decoder;
    try {
      decoder = new QueryStringDecoder(uri, StandardCharsets.UTF_8, true, 64);
      String decoded = decoder.path();
      if (decoded.indexOf('\uFFFD') >= 0 && rawPath.indexOf('\uFFFD') < 0) {
        throw new BadPathException("the path is not valid UTF-8");
      }
      String path = decoded.substring(1);
      check(path);
      return new RequestPath(path, decoder.parameters());
    } catch (IllegalArgumentException e) {
      throw new BadPathException("the request target cannot be decoded: " + e.getMessage());
    }
  }

  /** The decoded path without its leading '/'. */
  String path() {
    return path;
  }

  /** A query parameter's first value, or null. */
  String parameter(String name) {
    List<String> values = parameters.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** A query parameter as a number within [min, max], or the default when absent. */
  int intParameter(String name, int defaultValue, int min, int max) throws BadPathException {
    String v = parameter(name);
    if (v == null) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(v);
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new BadPathException(
          "parameter '" + name + "' must be a number from " + min + " to " + max);
    }
  }

  /** Percent signs must start a two-digit escape: a bare '%' is refused, not guessed at. */
  private static void checkEscapes(String rawPath) throws BadPathException {
    for (int i = 0; i < rawPath.length(); i++) {
      if (rawPath.charAt(i) == '%') {
        if (i + 2 >= rawPath.length()
            || Character.digit(rawPath.charAt(i + 1), 16) < 0
            || Character.digit(rawPath.charAt(i + 2), 16) < 0) {
          throw new BadPathException("a '%' in the path that is not an escape like %2F");
        }
      }
    }
  }

  /**
   * The decoded path: components separated by '/', none of them "." or "..", no empty one except a
   * final one (a trailing '/' asks for a listing), no control character.
   */
  private static void check(String path) throws BadPathException {
    if (path.length() > (ArchiveFormat.MAX_NAME_BYTES + 1024) / 3
        && path.getBytes(StandardCharsets.UTF_8).length > ArchiveFormat.MAX_NAME_BYTES + 1024) {
      throw new BadPathException("the path is longer than any entry name");
    }
    if (path.startsWith("/")) {
      throw new BadPathException("an absolute path after the server's '/'");
    }
    int componentStart = 0;
    for (int i = 0; i <= path.length(); i++) {
      char c = i < path.length() ? path.charAt(i) : '/'; // the end closes the last component
      if (c < 0x20 || c == 0x7f) {
        throw new BadPathException("a control character in the path (" + (int) c + ")");
      }
      if (c != '/') {
        continue;
      }
      int length = i - componentStart;
      if (length == 0 && i < path.length()) {
        throw new BadPathException("an empty component ('//') in the path");
      }
      boolean dots =
          length > 0
              && path.charAt(componentStart) == '.'
              && (length == 1 || (length == 2 && path.charAt(i - 1) == '.'));
      if (dots) {
        throw new BadPathException("'.' and '..' are not allowed in paths");
      }
      componentStart = i + 1;
    }
  }
}
