package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import java.io.IOException;
import java.util.Iterator;

/**
 * A directory a program is listing (from opendir to releasedir): the children not yet handed out,
 * read from the catalogs as the kernel asks for more, so that a directory of a million names is
 * listed page by page and never held whole. Positions are the kernel's offsets: 1 and 2 for "." and
 * "..", then one per child; a listing asked for from another position (a seekdir, a rewind) starts
 * again and skips to it.
 */
final class DirectoryCursor {
  /** Children, lazily; the same ones in the same order each time it is called. */
  interface Source {
    Iterator<String> open() throws IOException;
  }

  /** Takes one name at its position; false if the kernel's buffer is full (not taken). */
  interface Sink {
    boolean take(String name, long position);
  }

  private final Source source;
  private final ArchiveSnapshot snapshot; // null for a directory of archive ids
  private Iterator<String> children;
  private String pending;
  private long position; // of the last name taken

  DirectoryCursor(Source source, ArchiveSnapshot snapshot) {
    this.source = source;
    this.snapshot = snapshot;
  }

  /** Hands out names from after {@code offset} until the sink is full or the listing ends. */
  synchronized void fill(long offset, Sink sink) throws IOException {
    if (children == null || offset != position) {
      children = source.open();
      pending = null;
      position = 0;
      skipTo(offset);
    }
    while (true) {
      String name = next();
      if (name == null) {
        return;
      }
      if (!sink.take(name, position + 1)) {
        pending = name;
        return;
      }
      position++;
    }
  }

  private void skipTo(long offset) {
    while (position < offset && next() != null) {
      position++;
    }
  }

  private String next() {
    if (pending != null) {
      String name = pending;
      pending = null;
      return name;
    }
    if (position < 2) {
      return position == 0 ? "." : "..";
    }
    return children.hasNext() ? children.next() : null;
  }

  /** Lets go of the snapshot the listing reads. */
  void close() throws IOException {
    if (snapshot != null) {
      snapshot.release();
    }
  }
}
