package io.hpf.format;

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
