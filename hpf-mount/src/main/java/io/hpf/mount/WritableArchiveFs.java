package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.Generation;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.FuseError;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A writable mount of one archive (docs/MOUNT.md "Writing"): what it shows is the archive's last
 * commit with the {@link Overlay} of changes not yet committed above it. A file is staged while
 * open ({@link StagedFile}); closed, it goes to the archive's {@link GroupCommitWriter} through the
 * {@link ChangeQueue}; once a commit holds it the overlay lets it go and the archive shows it.
 * Directory changes ({@link #rename}, deletes) take the overlay's lock; content is read and written
 * beside it.
 */
final class WritableArchiveFs extends WritableFiles {
  private final String name;
  private final GroupCommitWriter writer;
  private final ChangeQueue queue;
  private final ExecutorService settler;

  WritableArchiveFs(
      String name,
      GroupCommitWriter writer,
      MountLog log,
      MemoryBudget budget,
      Path spill,
      int uid,
      int gid) {
    super(new Overlay(writer::surelyNoEntriesUnder), log, budget, spill, uid, gid);
    this.name = name;
    this.writer = writer;
    this.settler =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "hpf-mount-settle");
              t.setDaemon(true);
              return t;
            });
    this.queue = new ChangeQueue(this::send, writer::commitSoon);
  }

  @Override
  ArchiveSnapshot committed() throws IOException {
    return writer.committed();
  }

  @Override
  String archiveName() {
    return name;
  }

  @Override
  long queue(Pending pending, boolean settle) {
    return queue.add(pending, settle);
  }

  /** Sends {@code pending} if it is still to go; null if not. */
  private CompletableFuture<Generation> send(Pending pending, long seq) {
    List<Pending.Taken> going = new ArrayList<>(); // what lands with this commit
    synchronized (overlay) {
      if (pending.queued != seq) {
        return null; // queued again since, or no longer to go
      }
      if (!(pending instanceof Pending.File f)) {
        pending.queued = 0;
        pending.submittedOnce = true;
        going.add(pending.taken(List.of()));
      } else {
        List<Pending.File> files = f.together != null ? f.together : List.of(f);
        if (files.size() > 1 && anyOpenForWriting(files)) {
          // A directory renamed lands in one commit: it waits for its files being written to
          // close (or be synced), whose close queues it again.
          return null;
        }
        for (Pending.File m : files) {
          m.together = null;
          Pending.Taken taken = take(m, m == f);
          if (taken != null) {
            going.add(taken);
          }
        }
      }
    }
    if (going.isEmpty()) {
      return null;
    }
    List<GroupCommitWriter.Change> changes = new ArrayList<>();
    try {
      for (Pending.Taken t : going) {
        changes.addAll(t.changes());
      }
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Generation> sent = writer.apply(changes);
    sent.whenComplete(
        (g, e) -> {
          for (Pending.Taken t : going) {
            landed.add(new Landed(t.pending(), t.movedFrom(), e));
          }
          if (!settling.getAndSet(true)) {
            try {
              settler.execute(this::settleLanded);
            } catch (java.util.concurrent.RejectedExecutionException closed) {
              // the mount has ended: nothing is shown any more
            }
          }
        });
    return sent;
  }

  /** Whether a file of {@code files} that still goes under its name is open for writing. */
  private boolean anyOpenForWriting(List<Pending.File> files) {
    for (Pending.File m : files) {
      if (overlay.at(m.name) == m && m.writers > 0 && !m.syncing && m.content.broken() == null) {
        m.dirty = true; // its close queues it, and the group with it
        return true;
      }
    }
    return false;
  }

  /**
   * Takes staged file {@code f} to send (under the overlay's lock), or null if it does not go now
   * (replaced, deleted, broken, or open again: then at its close). {@code queuedItem}: the queue's
   * item is its own; else it goes with the one that is (a directory renamed in one commit), if it
   * is still queued.
   */
  private Pending.Taken take(Pending.File f, boolean queuedItem) {
    if ((!queuedItem && f.queued == 0) || overlay.at(f.name) != f || f.content.broken() != null) {
      return null;
    }
    f.queued = 0;
    if (f.writers > 0 && !f.syncing) {
      f.dirty = true; // open again: it goes at its close
      return null;
    }
    f.dirty = false;
    f.syncing = false;
    f.submittedOnce = true;
    List<String> from = List.copyOf(f.movedFrom);
    f.movedFrom.clear();
    return f.taken(from);
  }

  /** A change whose commit landed, or failed. */
  private record Landed(Pending pending, List<String> movedFrom, Throwable failure) {}

  private final java.util.concurrent.ConcurrentLinkedQueue<Landed> landed =
      new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicBoolean settling =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Lets the overlay go of what landed: the writer's last commit holds it already (a future
   * completes once its commit is the writer's snapshot).
   */
  private void settleLanded() {
    settling.set(false);
    for (Landed l; (l = landed.poll()) != null; ) {
      settled(l.pending(), l.movedFrom(), l.failure());
    }
  }

  /**
   * A change's commit landed (or failed): the archive shows it now, so the overlay lets it go,
   * unless it changed again meanwhile.
   */
  private void settled(Pending pending, List<String> movedFrom, Throwable failure) {
    if (failure != null) {
      Throwable cause =
          failure instanceof java.util.concurrent.CompletionException
              ? failure.getCause()
              : failure;
      log.warn(name + ": cannot commit '" + pending.name + "': " + ProgramMessages.describe(cause));
    }
    synchronized (overlay) {
      for (String from : movedFrom) {
        if (overlay.at(from) instanceof Pending.Deleted d && d.owner == pending) {
          overlay.drop(d);
        }
      }
      boolean unchanged =
          pending.queued == 0 && !(pending instanceof Pending.File f && (f.dirty || f.writers > 0));
      if ((unchanged || failure != null) && overlay.drop(pending)) {
        if (pending instanceof Pending.File f) {
          f.detached = true;
          f.discardIfUnused();
        }
      }
    }
  }

  /** Everything changed so far committed and durable, or EIO. */
  @Override
  void syncAll() throws FuseError {
    try {
      queue.sync().get();
    } catch (ExecutionException e) {
      log.warn(name + ": sync: " + ProgramMessages.describe(e.getCause()));
      throw new FuseError(FuseError.EIO);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FuseError(FuseError.EINTR);
    }
  }

  /** Commits what is left and closes the archive's writer; the mount has ended. */
  void close() throws IOException {
    try {
      queue.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    writer.close();
    settler.shutdown();
    try {
      settler.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
