package io.hpf.hadoop.fs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * What an {@code hpf://} path names: an archive directory on its own file system and a name inside
 * it ("" for the archive's root, else an entry or a directory of entries).
 *
 * <p>The authority carries the underlying file system as HAR's does: {@code hdfs-nn:8020} is {@code
 * hdfs://nn:8020}, {@code file-} the local disk, and an empty one the default file system. The
 * archive is the first path component whose name ends in {@code .hpf}.
 *
 * @param archive the archive directory's URI on its own file system
 * @param inner the name inside the archive, without leading or trailing '/'
 */
public record ArchivePath(URI archive, String inner) {
  public static final String ARCHIVE_SUFFIX = ".hpf";

  /**
   * Splits a path of the {@code hpf} scheme.
   *
   * @param path an {@code hpf} URI (scheme and authority may be absent: then {@code defaultFs})
   * @param defaultFs the default file system's URI, for an empty authority
   * @throws FileNotFoundException if no component names an archive
   * @throws IOException if the authority does not name a file system
   */
  public static ArchivePath parse(URI path, URI defaultFs) throws IOException {
    String[] underlying = underlyingFileSystem(path, defaultFs);
    String full = path.getPath() == null ? "" : path.getPath();
    String[] components = full.split("/");
    StringBuilder archive = new StringBuilder();
    int i = 0;
    for (; i < components.length; i++) {
      if (components[i].isEmpty()) {
        continue;
      }
      archive.append('/').append(components[i]);
      if (components[i].endsWith(ARCHIVE_SUFFIX) && components[i].length() > 4) {
        break;
      }
    }
    if (i == components.length) {
      throw new FileNotFoundException(
          path + ": names no archive (no path component ends in " + ARCHIVE_SUFFIX + ")");
    }
    StringBuilder inner = new StringBuilder();
    for (i++; i < components.length; i++) {
      if (!components[i].isEmpty()) {
        inner.append(inner.length() == 0 ? "" : "/").append(components[i]);
      }
    }
    try {
      URI archiveUri = new URI(underlying[0], underlying[1], archive.toString(), null, null);
      return new ArchivePath(archiveUri, inner.toString());
    } catch (URISyntaxException e) {
      throw new IOException(path + ": not a valid location: " + e.getMessage(), e);
    }
  }

  /** The scheme and authority (null for none) of the file system an hpf authority names. */
  static String[] underlyingFileSystem(URI path, URI defaultFs) throws IOException {
    String authority = path.getAuthority();
    if (authority == null || authority.isEmpty()) {
      if (defaultFs.getScheme() == null || defaultFs.getScheme().equals("hpf")) {
        throw new IOException(path + ": the default file system cannot hold hpf's archives");
      }
      return new String[] {defaultFs.getScheme(), defaultFs.getAuthority()};
    }
    int dash = authority.indexOf('-');
    if (dash <= 0) {
      throw new IOException(
          path
              + ": the authority must name the archive's file system as <scheme>-<host>:<port>"
              + " (hpf://hdfs-namenode:8020/..., hpf://file-/... for local disk)");
    }
    String rest = authority.substring(dash + 1);
    return new String[] {authority.substring(0, dash), rest.isEmpty() ? null : rest};
  }

  /** The hpf authority of an underlying file system's URI: HAR's {@code scheme-host:port}. */
  public static String authorityOf(URI underlying) {
    return underlying.getScheme() + "-" + nullToEmpty(underlying.getAuthority());
  }

  /** The {@code hpf://} URI of an archive location on its own file system, with a name inside. */
  public static URI hpfUri(URI archive, String inner) {
    String path = archive.getPath() + (inner.isEmpty() ? "" : "/" + inner);
    try {
      return new URI("hpf", authorityOf(archive), path, null, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(archive + ": " + e.getMessage(), e);
    }
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
