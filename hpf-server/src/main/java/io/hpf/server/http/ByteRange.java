package io.hpf.server.http;

/**
 * One byte range of a {@code Range: bytes=...} header (RFC 9110 §14), resolved against a length.
 * Several ranges, other units and syntax errors are ignored (the whole entry is sent, as the RFC
 * allows); a range that starts past the end is unsatisfiable (416).
 *
 * @param start the first byte
 * @param length bytes from {@code start}
 */
record ByteRange(long start, long length) {
  /** What a Range header asks of an entry of {@code size} bytes. */
  sealed interface Request permits Whole, Part, Unsatisfiable {}

  /** No usable range: send everything. */
  record Whole() implements Request {}

  /** Send this range (206). */
  record Part(ByteRange range) implements Request {}

  /** Nothing of the entry is in the range (416). */
  record Unsatisfiable() implements Request {}

  static Request parse(String header, long size) {
    if (header == null) {
      return new Whole();
    }
    String h = header.strip();
    if (!h.regionMatches(true, 0, "bytes=", 0, 6) || h.indexOf(',') >= 0) {
      return new Whole();
    }
    String spec = h.substring(6).strip();
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return new Whole();
    }
    String first = spec.substring(0, dash).strip();
    String last = spec.substring(dash + 1).strip();
    try {
      if (first.isEmpty()) {
        if (last.isEmpty()) {
          return new Whole();
        }
        long suffix = parseDigits(last);
        if (suffix == 0) {
          return new Unsatisfiable();
        }
        long n = Math.min(suffix, size);
        return size == 0 ? new Unsatisfiable() : new Part(new ByteRange(size - n, n));
      }
      long start = parseDigits(first);
      long end = last.isEmpty() ? Long.MAX_VALUE : parseDigits(last);
      if (end < start) {
        return new Whole(); // invalid: ignored
      }
      if (start >= size) {
        return new Unsatisfiable();
      }
      end = Math.min(end, size - 1);
      return new Part(new ByteRange(start, end - start + 1));
    } catch (NumberFormatException e) {
      return new Whole();
    }
  }

  /** Digits only: no sign, no spaces; too many digits is treated as the largest value. */
  private static long parseDigits(String s) {
    if (s.isEmpty()) {
      throw new NumberFormatException();
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        throw new NumberFormatException();
      }
    }
    return s.length() > 18 ? Long.MAX_VALUE : Long.parseLong(s);
  }
}
