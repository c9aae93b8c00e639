package io.hpf.hadoop.plan;

import io.hpf.hadoop.fs.ArchivePath;
import io.hpf.hadoop.fs.HpfFileSystem;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * An archive an engine reads, and the part of its names an input path names. Immutable.
 *
 * @param archive the archive's directory on its own file system
 * @param under the names under this path are read ("" for all)
 */
public record ArchiveScope(URI archive, String under) {
  /** Whether {@code name} is in scope: {@code under} itself or a name below it. */
  public boolean contains(String name) {
    return under.isEmpty() || name.equals(under) || name.startsWith(under + "/");
  }

  /**
   * The archives an input path names: an archive directory, a glob of them, or an {@code hpf://}
   * path inside an archive (then only the names under it).
   *
   * @throws FileNotFoundException naming the path when it matches nothing or matches a file
   */
  public static List<ArchiveScope> resolve(Path input, Configuration conf) throws IOException {
    List<ArchiveScope> scopes = new ArrayList<>();
    if (HpfFileSystem.SCHEME.equals(input.toUri().getScheme())) {
      ArchivePath p = ArchivePath.parse(input.toUri(), FileSystem.getDefaultUri(conf));
      scopes.add(new ArchiveScope(p.archive(), p.inner()));
      return scopes;
    }
    FileSystem fs = input.getFileSystem(conf);
    FileStatus[] matched = fs.globStatus(input);
    if (matched == null || matched.length == 0) {
      Path where = fs.makeQualified(input);
      throw new FileNotFoundException(
          where
              + ": no such archive"
              + (input.toUri().getScheme() == null
                  ? " (a path without a scheme is on the default file system, fs.defaultFS = "
                      + FileSystem.getDefaultUri(conf)
                      + (where.toUri().getScheme().equals("file")
                          ? ")"
                          : "; file://" + input.toUri().getPath() + " names local disk)")
                  : ""));
    }
    for (FileStatus s : matched) {
      if (!s.isDirectory()) {
        throw new FileNotFoundException(s.getPath() + ": not an archive (a file, not a directory)");
      }
      scopes.add(new ArchiveScope(s.getPath().toUri(), ""));
    }
    return scopes;
  }
}
