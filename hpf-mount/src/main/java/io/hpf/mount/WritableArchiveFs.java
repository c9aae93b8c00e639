package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.Generation;
import io.hpf.archive.GroupCommitWriter;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.FuseError;
import java.io.IOException;
import java.nio.file.Path;
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
  private final LiveArchive live;
  private final GroupCommitWriter writer;
  private final ChangeQueue queue;
  private final ExecutorService settler;

  WritableArchiveFs(
      LiveArchive live,
      GroupCommitWriter writer,
      MountLog log,
      MemoryBudget budget,
      Path spill,
      int uid,
      int gid) {
    super(log, budget, spill, uid, gid);
    this.live = live;
    this.writer = writer;
    this.settler =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "hpf-mount-settle");
              t.setDaemon(true);
              return t;
            });
    this.queue = new ChangeQueue(this::send);
  }

  @Override
  ArchiveSnapshot committed() throws IOException {
    return live.acquire();
  }

  @Override
  String archiveName() {
    return live.name();
  }

  @Override
  long queue(Pending pending, boolean settle) {
    return queue.add(pending, settle);
  }

  /** Sends {@code pending} if it is still to go; null if not. */
  private CompletableFuture<Generation> send(Pending pending, long seq) {
    List<String> movedFrom = List.of();
    synchronized (overlay) {
      if (pending.queued != seq) {
        return null; // queued again since, or no longer to go
      }
      pending.queued = 0;
      if (pending instanceof Pending.File f) {
        if (overlay.at(f.name) != f || f.content.broken() != null) {
          return null;
        }
        if (f.writers > 0 && !f.syncing) {
          f.dirty = true; // open again: it goes at its close
          return null;
        }
        f.dirty = false;
        f.syncing = false;
        movedFrom = List.copyOf(f.movedFrom);
        f.movedFrom.clear();
      }
      pending.submittedOnce = true;
    }
    List<GroupCommitWriter.Change> changes;
    try {
      changes =
          pending instanceof Pending.File f ? f.changes(movedFrom) : pending.changes(List.of());
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Generation> sent = writer.apply(changes);
    List<String> from = movedFrom;
    sent.whenComplete((g, e) -> settler.execute(() -> settled(pending, from, e)));
    return sent;
  }

  /**
   * A change's commit landed (or failed): the archive shows it now, so the overlay lets it go,
   * unless it changed again meanwhile.
   */
  private void settled(Pending pending, List<String> movedFrom, Throwable failure) {
    try {
      live.refresh((before, now) -> {});
    } catch (IOException | RuntimeException e) {
      log.warn(live.name() + ": reading the new commit: " + ProgramMessages.describe(e));
    }
    if (failure != null) {
      Throwable cause =
          failure instanceof java.util.concurrent.CompletionException
              ? failure.getCause()
              : failure;
      log.warn(
          live.name()
              + ": cannot commit '"
              + pending.name
              + "': "
              + ProgramMessages.describe(cause));
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
      log.warn(live.name() + ": sync: " + ProgramMessages.describe(e.getCause()));
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
  }
}
