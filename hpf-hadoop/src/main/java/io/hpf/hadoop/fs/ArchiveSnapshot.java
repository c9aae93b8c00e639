package io.hpf.hadoop.fs;

import io.hpf.archive.ArchiveReader;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One generation of an archive as the file system serves it, counted by its users (open streams,
 * calls in progress): when a newer generation replaces it, it is closed by its last user, so a
 * stream opened before a commit reads its entry to the end.
 */
final class ArchiveSnapshot {
  private final ArchiveReader reader;

  /** The file system's own reference (until retired) plus one per user. */
  private final AtomicInteger references = new AtomicInteger(1);

  ArchiveSnapshot(ArchiveReader reader) {
    this.reader = reader;
  }

  ArchiveReader reader() {
    return reader;
  }

  /** Takes a reference; false if the snapshot is already closed (the caller looks again). */
  boolean acquire() {
    while (true) {
      int n = references.get();
      if (n == 0) {
        return false;
      }
      if (references.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Gives a reference back; the last one closes the reader. */
  void release() throws IOException {
    if (references.decrementAndGet() == 0) {
      reader.close();
    }
  }
}
