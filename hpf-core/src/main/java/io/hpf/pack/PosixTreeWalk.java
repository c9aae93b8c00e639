package io.hpf.pack;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.Iterator;

/**
 * The walk of a local tree where files have POSIX attributes and links are not followed: one {@code
 * lstat} per name, which gives its type, size, time and mode at once, and entry names built as the
 * walk descends. {@code Files.walkFileTree} costs a second stat per file for the mode and rebuilds
 * every name from its path; on trees of 1 KB files that was a third of a create's CPU. Same results
 * and messages as the general walk in {@link LocalSourceTree}.
 */
final class PosixTreeWalk {
  private final Path excluded;
  private final LocalSourceTree.Findings to;
  private boolean stopped;

  private PosixTreeWalk(Path excluded, LocalSourceTree.Findings to) {
    this.excluded = excluded;
    this.to = to;
  }

  /**
   * Walks {@code root}; false, having listed nothing, where the file system has no POSIX attributes
   * or links are followed (the caller walks it the general way).
   */
  static boolean walk(Path root, Path excluded, String prefix, LocalSourceTree.Findings to)
      throws IOException {
    if (to.options().followSymlinks()
        || !root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return false;
    }
    new PosixTreeWalk(excluded, to).directory(root, prefix);
    return true;
  }

  /** Lists one directory, descending into its subdirectories as they come. */
  private void directory(Path dir, String namePrefix) throws IOException {
    if (dir.equals(excluded)) {
      to.skipped().add(dir + ": the archive being written (not packed)");
      return;
    }
    try (DirectoryStream<Path> children = open(dir)) {
      if (children == null) {
        return;
      }
      Iterator<Path> names = children.iterator();
      while (!stopped) {
        Path child;
        try { // only the listing's own failures are this directory's; a child's are its own
          if (!names.hasNext()) {
            return;
          }
          child = names.next();
        } catch (DirectoryIteratorException e) {
          to.unreadable(dir, e.getCause());
          return;
        }
        visit(children, child, namePrefix);
      }
    }
  }

  /** The directory's listing; null if it cannot be opened and the options say to skip it. */
  @SuppressWarnings("StreamResourceLeak") // the caller's try-with-resources closes it
  private DirectoryStream<Path> open(Path dir) throws IOException {
    try {
      return Files.newDirectoryStream(dir);
    } catch (IOException e) {
      to.unreadable(dir, e);
      return null;
    }
  }

  private void visit(DirectoryStream<Path> dir, Path child, String namePrefix) throws IOException {
    PosixFileAttributes attrs;
    try {
      attrs = attributes(dir, child);
    } catch (IOException e) {
      to.unreadable(child, e);
      return;
    }
    String component = child.getFileName().toString();
    if (attrs.isDirectory()) {
      if (checkedName(child, component)) {
        directory(child, namePrefix + component + "/");
      }
      return;
    }
    if (attrs.isSymbolicLink()) {
      to.skipped().add(child + ": symbolic link (use --follow-symlinks to follow)");
    } else if (!attrs.isRegularFile()) {
      to.skipped().add(child + ": not a regular file");
    } else if (checkedName(child, component)) {
      to.sink()
          .accept(
              new LocalSourceTree.LocalFile(
                  namePrefix + component,
                  child,
                  attrs.size(),
                  attrs.lastModifiedTime().toMillis(),
                  LocalSourceTree.modeOf(child, attrs, false)));
    }
    stopped = to.stop().getAsBoolean();
  }

  /**
   * A name's attributes, without following a link: where the listing is a secure one (Linux), an
   * {@code fstatat} relative to the open directory, which spares the kernel a walk of the whole
   * path.
   */
  private static PosixFileAttributes attributes(DirectoryStream<Path> dir, Path child)
      throws IOException {
    if (dir instanceof SecureDirectoryStream<Path> secure) {
      PosixFileAttributeView view =
          secure.getFileAttributeView(
              child.getFileName(), PosixFileAttributeView.class, NOFOLLOW_LINKS);
      if (view != null) {
        return view.readAttributes();
      }
    }
    return Files.readAttributes(child, PosixFileAttributes.class, NOFOLLOW_LINKS);
  }

  /** Whether a name decoded as UTF-8; if not, an error, or listed as skipped if the options say. */
  private boolean checkedName(Path path, String component) throws IOException {
    if (component.indexOf('\uFFFD') < 0) {
      return true;
    }
    to.skipOrThrow(LocalSourceTree.notUtf8(path));
    return false;
  }
}
