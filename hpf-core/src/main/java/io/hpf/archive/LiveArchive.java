package io.hpf.archive;

import io.hpf.archive.model.Generation;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;

/**
 * One archive as a reader that runs for days serves it (the mount, {@code hpf://}, the server): its
 * newest generation as a counted {@link ArchiveSnapshot}, swapped when a commit makes a newer one.
 * A user (a request, an open file, a stream) holds the snapshot it acquired until it releases it,
 * so it reads one generation from start to end whatever commits come meanwhile; the generation a
 * refresh replaced closes when its last user lets go. The one place that follows an archive from
 * generation to generation: which files a generation reads, and that a newer one is the same
 * archive's, its readers know ({@link ArchiveReader#refresh}).
 *
 * <p>Thread-safe: acquiring takes no lock; refreshes and close are serialized.
 */
public final class LiveArchive implements Closeable {
  private final String name;
  private volatile ArchiveSnapshot current;
  private volatile boolean closed;

  /** Serves {@code first}'s generation, named {@code name} in messages. */
  public LiveArchive(String name, ArchiveReader first) {
    this.name = name;
    this.current = new ArchiveSnapshot(first);
  }

  /** Opens the archive in {@code storage} (shared with other readers of this process). */
  public static LiveArchive open(String name, Storage storage) throws IOException {
    return new LiveArchive(name, ArchiveReader.open(storage));
  }

  /** What messages call the archive. */
  public String name() {
    return name;
  }

  /** The current snapshot, held (the caller releases it); null once closed. */
  public ArchiveSnapshot tryAcquire() {
    while (!closed) {
      ArchiveSnapshot snapshot = current;
      if (snapshot.acquire()) {
        return snapshot;
      }
      // released by a refresh between the read and the acquire: take the newer one
    }
    return null;
  }

  /**
   * The current snapshot, held: the caller releases it.
   *
   * @throws IOException once the archive is closed (gone from where it was served)
   */
  public ArchiveSnapshot acquire() throws IOException {
    ArchiveSnapshot snapshot = tryAcquire();
    if (snapshot == null) {
      throw new IOException(name + ": no longer served (gone from where it was)");
    }
    return snapshot;
  }

  /** The current generation's reader, not held: for what needs no bytes (its index memory). */
  public ArchiveReader peek() {
    return current.reader();
  }

  /** What is told of a newer generation once it is served, with the one before still open. */
  @FunctionalInterface
  public interface Change {
    void seen(ArchiveReader before, ArchiveReader now) throws IOException;
  }

  /**
   * Serves the newest generation if a commit made one (one listing of storage) and tells {@code
   * change}; true if it did.
   */
  public synchronized boolean refresh(Change change) throws IOException {
    return !closed && swap(current.reader().refresh(), change);
  }

  /** As {@link #refresh(Change)}, telling no one. */
  public boolean refresh() throws IOException {
    return refresh((before, now) -> {});
  }

  /**
   * Serves at least {@code committed}, a generation a writer of this process just committed,
   * without a listing (see {@link ArchiveReader#followedBy}); true if it was newer than the one
   * served.
   */
  public synchronized boolean advanceTo(Generation committed) throws IOException {
    return !closed && swap(current.reader().followedBy(committed), (before, now) -> {});
  }

  private boolean swap(ArchiveReader newer, Change change) throws IOException {
    ArchiveSnapshot old = current;
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

  /** Stops serving: the current generation closes when its last user lets go. */
  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      current.release();
    }
  }
}
