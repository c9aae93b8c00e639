package io.hpf.archive;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One generation of an archive as a long-lived reader (the {@code hpf://} file system, the read
 * server) serves it, counted by its users (open streams, requests in progress): when a newer
 * generation replaces it, it is closed by its last user, so a stream opened before a commit reads
 * its entry to the end.
 */
public final class ArchiveSnapshot {
  private final ArchiveReader reader;

  /** The owner's reference (until retired) plus one per user. */
  private final AtomicInteger references = new AtomicInteger(1);

  /** Holds the owner's reference until the owner calls {@link #release} to retire it. */
  public ArchiveSnapshot(ArchiveReader reader) {
    this.reader = reader;
  }

  public ArchiveReader reader() {
    return reader;
  }

  /** Takes a reference; false if the snapshot is already closed (the caller looks again). */
  public boolean acquire() {
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
  public void release() throws IOException {
    if (references.decrementAndGet() == 0) {
      reader.close();
    }
  }
}
