package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * The directory tree an archive's names make, as {@code hpf://} derives it: a name is a file, and
 * every prefix of it ending before a '/' is a directory. Nothing is held: a path is looked up in
 * the index ({@link ArchiveReader#stat}) and, failing that, tried as a directory prefix in the
 * catalogs; a listing walks the catalogs from the directory's prefix, stepping over each
 * subdirectory's names with one catalog seek instead of reading them.
 */
final class ArchiveTree {
  private ArchiveTree() {}

  /** What a path names: a file (its row), a directory, or nothing. */
  record Node(EntryInfo file, boolean directory) {
    static final Node NONE = new Node(null, false);
    static final Node DIRECTORY = new Node(null, true);

    boolean exists() {
      return file != null || directory;
    }
  }

  /** The entry name of a FUSE path ("/a/b" is "a/b", "/" is ""). */
  static String nameOf(String path) {
    return path.startsWith("/") ? path.substring(1) : path;
  }

  /** What {@code path} names in {@code reader}'s generation. */
  static Node lookup(ArchiveReader reader, String path) throws IOException {
    String name = nameOf(path);
    if (name.isEmpty()) {
      return Node.DIRECTORY;
    }
    if (name.endsWith("/") || name.contains("//")) {
      return Node.NONE; // no entry name has an empty component
    }
    EntryInfo row = reader.stat(name);
    if (row != null) {
      return new Node(row, false);
    }
    return reader.list(name + "/").hasNext() ? Node.DIRECTORY : Node.NONE;
  }

  /** A child of a directory: a file (its row) or a subdirectory (no row). */
  record Child(String name, EntryInfo file) {}

  /**
   * Gives the name of each child of directory {@code path} to {@code sink} once, in name order: its
   * files and its subdirectories.
   */
  static void childNames(ArchiveReader reader, String path, Consumer<String> sink)
      throws IOException {
    Iterator<Child> all = children(reader, path);
    while (all.hasNext()) {
      sink.accept(all.next().name());
    }
  }

  /**
   * The children of directory {@code path} in name order, lazily. Each subdirectory costs one seek
   * of the catalogs past its names.
   */
  static Iterator<Child> children(ArchiveReader reader, String path) throws IOException {
    String name = nameOf(path);
    String prefix = name.isEmpty() ? "" : name + "/";
    Iterator<EntryInfo> first = reader.list(prefix);
    return new Iterator<>() {
      private Iterator<EntryInfo> rows = first;

      @Override
      public boolean hasNext() {
        return rows.hasNext();
      }

      @Override
      public Child next() {
        EntryInfo row = rows.next();
        String rest = row.name().substring(prefix.length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
          return new Child(rest, row);
        }
        String directory = rest.substring(0, slash);
        try {
          // Every name under "dir/" sorts before "dir0" ('0' follows '/'): continue from there.
          rows = reader.list(prefix, prefix + directory + "0");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
        return new Child(directory, null);
      }
    };
  }
}
