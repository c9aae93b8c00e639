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
  public static boolean isLocal(String location) {
    return !SCHEME.matcher(location).matches() || location.startsWith("file:");
  }

  /** A local location as a path. REQUIRES: {@link #isLocal}. */
  public static Path localPath(String location) {
    return location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
  }
}
