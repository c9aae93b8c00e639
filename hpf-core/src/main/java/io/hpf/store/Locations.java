package io.hpf.store;

import java.net.URI;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Where an archive or a source lives, from the string a user gives: a local path or {@code file:}
 * URI is local disk (read with {@code java.nio}); anything with another scheme is for a Hadoop file
 * system. Here, without Hadoop, so that a command on local disk never loads Hadoop's classes.
 */
public final class Locations {
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");

  private Locations() {}

  /** Whether a location is on local disk: no URI scheme, or {@code file:}. */
  /**
   * A relative path of plain components ("a/b/c"), unchanged.
   *
   * @throws IllegalArgumentException if it is absolute, empty or has an empty, "." or ".."
   *     component
   */
  public static String checkRelative(String path) {
    for (String component : path.split("/", -1)) {
      if (component.isEmpty() || component.equals(".") || component.equals("..")) {
        throw new IllegalArgumentException("not a relative path of plain names: '" + path + "'");
      }
    }
    return path;
  }

  public static boolean isLocal(String location) {
    return !SCHEME.matcher(location).matches() || location.startsWith("file:");
  }

  /** A local location as a path. REQUIRES: {@link #isLocal}. */
  public static Path localPath(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }
}
