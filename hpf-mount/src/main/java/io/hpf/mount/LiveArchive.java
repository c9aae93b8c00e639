package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;

/**
 * The archive a mount serves: a counted snapshot of its newest generation, swapped when a commit
 * makes a newer one ({@link #refresh}, called about twice a second). A request holds the snapshot
 * it started with until it ends; an open file holds its own until it is closed, so it keeps its
 * bytes whatever commits come meanwhile.
 */
final class LiveArchive implements Closeable {
  private final String name;
  private volatile ArchiveSnapshot current;

  LiveArchive(String name, Storage storage) throws IOException {
    this.name = name;
    this.current = new ArchiveSnapshot(ArchiveReader.open(storage));
  }

  /** What messages call the archive. */
  String name() {
    return name;
  }

  /**
   * The current snapshot, held: the caller releases it.
   *
   * @throws IOException if the archive was closed (gone from a mounted directory) meanwhile
   */
  ArchiveSnapshot acquire() throws IOException {
    while (true) {
      ArchiveSnapshot snapshot = current;
      if (snapshot.acquire()) {
        return snapshot;
      }
      if (snapshot == current) { // released and not replaced: closed, not refreshed
        throw new IOException(name + ": no longer mounted (gone from the directory)");
      }
      // released by a refresh between the read and the acquire: take the newer one
    }
  }

  /** What is told of a new generation once it is served, with the one before still open. */
  interface Change {
    void seen(ArchiveReader before, ArchiveReader now) throws IOException;
  }

  /** Takes the newest generation if a commit made one, and tells {@code change}; true if it did. */
  synchronized boolean refresh(Change change) throws IOException {
    ArchiveSnapshot old = current;
    ArchiveReader newer = old.reader().refresh();
    if (newer == old.reader()) {
      return false;
    }
    current = new ArchiveSnapshot(newer);
    try {
      change.seen(old.reader(), newer);
    } finally {
      old.release();
    }
    return true;
  }

  @Override
  public synchronized void close() throws IOException {
    current.release();
  }
}
