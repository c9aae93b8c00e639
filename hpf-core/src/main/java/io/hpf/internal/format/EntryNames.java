package io.hpf.internal.format;

import java.nio.charset.StandardCharsets;

/**
 * The rules for entry names (FORMAT.md "Entry names"): a relative path of UTF-8 components
 * separated by '/', with no empty, "." or ".." component, no NUL, no leading drive letter, at most
 * 65535 UTF-8 bytes. {@link #normalize} turns user input into that form or says why not.
 */
public final class EntryNames {
  private EntryNames() {}

  /**
   * Normalizes a user-supplied name: drops "." components, repeated and trailing '/'.
   *
   * @throws IllegalArgumentException naming the input and the rule it breaks
   */
  public static String normalize(String raw) {
    if (isPlainlyNormal(raw)) {
      return raw; // the common case, on every lookup: one scan, no allocation
    }
    String problem = problem(raw);
    if (problem != null) {
      throw new IllegalArgumentException("invalid entry name '" + raw + "': " + problem);
    }
    StringBuilder out = new StringBuilder(raw.length());
    for (String component : raw.split("/", -1)) {
      if (component.isEmpty() || component.equals(".")) {
        continue;
      }
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(component);
    }
    return out.toString();
  }

  private static String problem(String raw) {
    if (raw.startsWith("/")) {
      return "absolute paths are not allowed";
    }
    if (raw.length() >= 2 && raw.charAt(1) == ':' && Character.isLetter(raw.charAt(0))) {
      return "drive letters are not allowed";
    }
    if (raw.indexOf('\0') >= 0) {
      return "NUL character";
    }
    boolean any = false;
    for (String component : raw.split("/", -1)) {
      if (component.equals("..")) {
        return "'..' components are not allowed";
      }
      if (!component.isEmpty() && !component.equals(".")) {
        any = true;
      }
    }
    if (!any) {
      return "empty name";
    }
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (isLoneEscape(raw, i)) {
        return String.format(
            java.util.Locale.ROOT, "not valid UTF-8 (byte 0x%02x at character %d)", c - 0xDC00, i);
      }
      if (Character.isHighSurrogate(c)
          && (i + 1 >= raw.length() || !Character.isLowSurrogate(raw.charAt(i + 1)))) {
        return "unpaired surrogate at character " + i;
      }
      if (Character.isLowSurrogate(c)
          && (i == 0 || !Character.isHighSurrogate(raw.charAt(i - 1)))) {
        return "unpaired surrogate at character " + i;
      }
    }
    if (raw.getBytes(StandardCharsets.UTF_8).length > FormatConstants.MAX_NAME_BYTES) {
      return "longer than " + FormatConstants.MAX_NAME_BYTES + " UTF-8 bytes";
    }
    return null;
  }

  /**
   * A quick test that accepts most normal names: ASCII or BMP characters without surrogates, no
   * empty, "." or ".." component, no leading drive letter, short enough in any encoding. False
   * means "look closer", not "invalid".
   */
  private static boolean isPlainlyNormal(String name) {
    int n = name.length();
    if (n == 0 || n > FormatConstants.MAX_NAME_BYTES / 3 || name.charAt(n - 1) == '/') {
      return false;
    }
    if (n >= 2 && name.charAt(1) == ':') {
      return false;
    }
    int componentStart = 0;
    for (int i = 0; i <= n; i++) {
      char c = i < n ? name.charAt(i) : '/';
      if (c == '/') {
        int length = i - componentStart;
        if (length == 0
            || (length == 1 && name.charAt(componentStart) == '.')
            || (length == 2
                && name.charAt(componentStart) == '.'
                && name.charAt(componentStart + 1) == '.')) {
          return false;
        }
        componentStart = i + 1;
      } else if (c == '\0' || Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code c} stands for a byte of a stored name that is not UTF-8 (U+DC80..U+DCFF). */
  static boolean isEscapedByte(char c) {
    return c >= 0xDC80 && c <= 0xDCFF;
  }

  /** Whether {@code name} lies under {@code directory} (a name: "d/x" is under "d"). */
  public static boolean isUnder(String name, String directory) {
    return name.length() > directory.length()
        && name.startsWith(directory)
        && name.charAt(directory.length()) == '/';
  }

  /**
   * The bytes of a name as stored (FORMAT.md "Entry names"): its UTF-8, except that a character
   * U+DC80..U+DCFF that is not part of a surrogate pair stands for the byte 0x80..0xFF that a
   * reader found there and could not decode, as Python's "surrogateescape" does. So a name read
   * from an archive gives back the bytes it was read from, valid UTF-8 or not.
   */
  public static byte[] utf8(String name) {
    if (!hasEscapedBytes(name)) {
      return name.getBytes(StandardCharsets.UTF_8);
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(name.length() + 8);
    int start = 0;
    for (int i = 0; i <= name.length(); i++) {
      if (i == name.length() || isLoneEscape(name, i)) {
        out.writeBytes(name.substring(start, i).getBytes(StandardCharsets.UTF_8));
        if (i < name.length()) {
          out.write(name.charAt(i) - 0xDC00);
        }
        start = i + 1;
      }
    }
    return out.toByteArray();
  }

  /** A name for a message: the bytes of it that are not UTF-8 as {@code \xNN}. */
  public static String shown(String name) {
    if (!hasEscapedBytes(name)) {
      return name;
    }
    StringBuilder out = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      out.append(
          isLoneEscape(name, i)
              ? String.format(java.util.Locale.ROOT, "\\x%02x", name.charAt(i) - 0xDC00)
              : String.valueOf(name.charAt(i)));
    }
    return out.toString();
  }

  /** Whether a name read from an archive holds bytes that are not UTF-8 (see {@link #utf8}). */
  public static boolean hasEscapedBytes(String name) {
    for (int i = 0; i < name.length(); i++) {
      if (isLoneEscape(name, i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isLoneEscape(String s, int i) {
    return isEscapedByte(s.charAt(i)) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
  }

  /**
   * The name a lookup searches for: the normal form of a name asked for, or, for a name holding
   * bytes that are not UTF-8 (as a listing gives it), the name as it is; null if no entry can have
   * it.
   */
  public static String lookupForm(String raw) {
    if (hasEscapedBytes(raw)) {
      return raw;
    }
    try {
      return normalize(raw);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** True if the name is already in normal form, so it is safe to use as a relative path. */
  public static boolean isNormal(String name) {
    return whyNotNormal(name) == null;
  }

  /**
   * Why a stored name breaks the rules (verify and extract report it), or null if it is in normal
   * form.
   */
  public static String whyNotNormal(String name) {
    if (isPlainlyNormal(name)) {
      return null;
    }
    String problem = problem(name);
    if (problem != null) {
      return problem;
    }
    return normalize(name).equals(name)
        ? null
        : "not in normal form (empty or '.' component, or a trailing '/')";
  }
}
