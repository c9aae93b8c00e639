package io.hpf.server.archives;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.server.ServerLog;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The writers of a writable server: a {@link GroupCommitWriter} per archive written to, opened on
 * its first change (taking the archive's lock, recovering what a writer that died left, as any
 * writer does) and closed once it sat idle, which lets the lock go so that a CLI {@code add} can
 * take it between bursts of writes. A change is acknowledged only once a durable commit holds it,
 * and the server's readers of the archive see that commit before the acknowledgement. The bytes of
 * changes waiting for their commit are bounded: past the bound a change is refused at once ({@link
 * BusyException}; S3 clients retry SlowDown).
 */
public final class ArchiveWriters implements Closeable {
  /** A change refused because too many bytes wait for their commits. */
  public static final class BusyException extends IOException {
    BusyException(long waitingBytes) {
      super("the server has " + waitingBytes + " bytes waiting to be committed: retry");
    }
  }

  private final ArchiveDirectory directory;
  private final ReaderPool pool;
  private final long maxWaitingBytes;
  private final long idleNanos;
  private final LongSupplier clock;
  private final AtomicLong waitingBytes = new AtomicLong();
  private final ConcurrentHashMap<String, Slot> writers = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Object> openLocks = new ConcurrentHashMap<>();

  private static final class Slot {
    final GroupCommitWriter writer;
    volatile long lastUsed;

    Slot(GroupCommitWriter writer, long now) {
      this.writer = writer;
      this.lastUsed = now;
    }
  }

  /**
   * @param maxWaitingBytes content bytes that may wait for their commits at once
   * @param idleNanos a writer with no change for this long is closed
   */
  public ArchiveWriters(
      ArchiveDirectory directory,
      ReaderPool pool,
      long maxWaitingBytes,
      long idleNanos,
      LongSupplier clock) {
    this.directory = directory;
    this.pool = pool;
    this.maxWaitingBytes = maxWaitingBytes;
    this.idleNanos = idleNanos;
    this.clock = clock;
  }

  /** Adds or replaces an entry if {@code condition} holds; see {@link GroupCommitWriter#put}. */
  public CompletableFuture<Generation> put(
      String archive,
      String name,
      byte[] content,
      EntryMetadata meta,
      GroupCommitWriter.Precondition condition)
      throws IOException {
    long now = waitingBytes.addAndGet(content.length);
    if (now > maxWaitingBytes && now != content.length) {
      waitingBytes.addAndGet(-content.length);
      throw new BusyException(now - content.length);
    }
    CompletableFuture<Generation> done;
    try {
      done = change(archive, w -> w.put(name, content, meta, condition));
    } catch (IOException | RuntimeException e) {
      waitingBytes.addAndGet(-content.length);
      throw e;
    }
    return done.whenComplete((g, e) -> waitingBytes.addAndGet(-content.length));
  }

  /** Whether this server has a writer of the archive open now. */
  public boolean isWriting(String archive) {
    return writers.containsKey(archive);
  }

  /** Deletes an entry (no error if it is not there). */
  public CompletableFuture<Generation> delete(String archive, String name) throws IOException {
    return change(archive, w -> w.delete(name));
  }

  /** One change through the archive's writer, opened if needed; seen by readers once committed. */
  private CompletableFuture<Generation> change(String archive, Change change) throws IOException {
    while (true) {
      Slot slot = slot(archive);
      slot.lastUsed = clock.getAsLong();
      CompletableFuture<Generation> done = change.to(slot.writer);
      if (done.isCompletedExceptionally() && slot.writer.isClosed()) {
        writers.remove(archive, slot); // closed for idleness under us: open it again
        continue;
      }
      return done.thenApply(
          g -> {
            pool.refresh(archive, g);
            return g;
          });
    }
  }

  @FunctionalInterface
  private interface Change {
    CompletableFuture<Generation> to(GroupCommitWriter writer);
  }

  private Slot slot(String archive) throws IOException {
    Slot slot = writers.get(archive);
    if (slot != null) {
      return slot;
    }
    synchronized (openLocks.computeIfAbsent(archive, k -> new Object())) {
      slot = writers.get(archive);
      if (slot == null) {
        String location = directory.location(archive);
        if (location == null) {
          throw new FileNotFoundException("no archive '" + archive + "'");
        }
        Storage storage = directory.root().openToWrite(location);
        slot = new Slot(open(storage), clock.getAsLong());
        writers.put(archive, slot);
      }
      return slot;
    }
  }

  private static GroupCommitWriter open(Storage storage) throws IOException {
    return GroupCommitWriter.open(
        storage, WriterOptions.builder().build(), GroupCommitWriter.Settings.DEFAULTS);
  }

  /**
   * Makes a new, empty archive {@code id} under the root (S3's CreateBucket).
   *
   * @throws java.nio.file.FileAlreadyExistsException there is one
   */
  public void create(String id) throws IOException {
    if (directory.location(id) != null) {
      throw new java.nio.file.FileAlreadyExistsException(id);
    }
    Storage storage = directory.root().createArchive(id);
    try (ArchiveWriter w = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      w.commit();
    }
    directory.rescanNow();
  }

  /** An archive that is not empty, so not deleted. */
  public static final class NotEmptyException extends IOException {
    NotEmptyException(String archive, long entries) {
      super("archive '" + archive + "' holds " + entries + " entries: delete them first");
    }
  }

  /**
   * Deletes an empty archive (S3's DeleteBucket): its writer is closed, the archive's lock taken
   * (no other writer can be at work), its files deleted, then its directory.
   *
   * @throws NotEmptyException it has entries
   * @throws java.nio.file.DirectoryNotEmptyException its directory holds other files
   */
  public void deleteEmpty(String id) throws IOException {
    synchronized (openLocks.computeIfAbsent(id, k -> new Object())) {
      String location = directory.location(id);
      if (location == null) {
        throw new FileNotFoundException("no archive '" + id + "'");
      }
      Slot open = writers.remove(id);
      if (open != null) {
        closeQuietly(id, open);
      }
      Storage storage = directory.root().openToWrite(location);
      try (ArchiveWriter lock = ArchiveWriter.open(storage, WriterOptions.builder().build())) {
        long entries = lock.manifest().liveEntries();
        if (entries > 0) {
          throw new NotEmptyException(id, entries);
        }
        for (Storage.StoredFile f : storage.list()) {
          if (io.hpf.archive.ArchiveFormat.isArchiveFile(f.name())) {
            storage.delete(f.name());
          }
        }
      } // closing deletes the lock file
      directory.root().removeEmptyArchive(location);
      directory.rescanNow();
    }
  }

  /** Closes the writers that sat idle, letting their archives' locks go. */
  public void closeIdle() {
    long now = clock.getAsLong();
    for (var e : new ArrayList<>(writers.entrySet())) {
      Slot slot = e.getValue();
      if (now - slot.lastUsed > idleNanos && writers.remove(e.getKey(), slot)) {
        closeQuietly(e.getKey(), slot);
      }
    }
  }

  /** Commits what is pending and closes every writer. */
  @Override
  public void close() {
    for (var e : new ArrayList<>(writers.entrySet())) {
      if (writers.remove(e.getKey(), e.getValue())) {
        closeQuietly(e.getKey(), e.getValue());
      }
    }
  }

  private static void closeQuietly(String archive, Slot slot) {
    try {
      slot.writer.close();
    } catch (IOException | RuntimeException e) {
      ServerLog.warn("closing the writer of '" + archive + "': " + e.getMessage());
    }
  }
}
