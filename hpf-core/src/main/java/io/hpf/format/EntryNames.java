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

  /** True if the name is already in normal form, so it is safe to use as a relative path. */
  public static boolean isNormal(String name) {
    try {
      return normalize(name).equals(name);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
