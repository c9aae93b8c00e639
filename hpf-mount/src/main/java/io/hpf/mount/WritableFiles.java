package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.Attributes;
import io.hpf.mount.fuse.FuseError;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The content of a writable mount's files, through handles: a file opened to read is read from the
 * commit it was opened on (or from its staged content while a change of it is pending); a file
 * opened to write is staged, from the committed content unless truncated, and goes to the archive
 * when its last writer closes it. A write that fails (the spill directory full) fails, and fails
 * the file: nothing of it is committed.
 */
abstract class WritableFiles extends WritableNames {
  private static final int O_ACCMODE = 3;
  private static final int O_EXCL = 0200;
  private static final int O_TRUNC = 01000;

  private final FileContents contents;
  private final Map<Long, Handle> handles = new ConcurrentHashMap<>();

  /** An open file: staged (read, and written if {@code writes}), or committed on a snapshot. */
  private record Handle(
      Pending.File file, boolean writes, ArchiveSnapshot snapshot, EntryInfo row) {}

  WritableFiles(Overlay overlay, MountLog log, MemoryBudget budget, Path spill, int uid, int gid) {
    super(overlay, log, budget, spill, uid, gid);
    this.contents = new FileContents(budget);
  }

  private long handleFor(Handle h) {
    long id = nextHandle.getAndIncrement();
    handles.put(id, h);
    return id;
  }

  private Handle handle(long id) throws FuseError {
    Handle h = handles.get(id);
    if (h == null) {
      throw new FuseError(FuseError.EBADF);
    }
    return h;
  }

  @Override
  public long open(long node, int flags) throws FuseError {
    boolean writes = (flags & O_ACCMODE) != 0;
    boolean truncate = writes && (flags & O_TRUNC) != 0;
    return locked(
        "open",
        String.valueOf(node),
        committed -> {
          Overlay.Found f = existing(node, committed);
          if (f.directory()) {
            throw new FuseError(FuseError.EISDIR);
          }
          if (f.staged() == null && !writes) { // read where the row was found: held by the handle
            return handleFor(new Handle(null, false, snapshotOf(node), f.committed()));
          }
          Pending.File file =
              f.staged() != null
                  ? f.staged()
                  : stageCommitted(node, nameOf(node, f), f, truncate, committed);
          return opened(file, writes, truncate);
        });
  }

  /**
   * A committed file staged to be written: a copy of its content, or empty if truncated; shown at
   * its name unless node {@code node} no longer has it (a file deleted while a program held it,
   * whose changes go nowhere).
   */
  private Pending.File stageCommitted(
      long node,
      String path,
      Overlay.Found f,
      boolean truncate,
      io.hpf.archive.ArchiveReader committed)
      throws IOException, FuseError {
    EntryInfo row = f.committed();
    if (row.rawLength() > StagedFile.MAX_BYTES) {
      throw new FuseError(FuseError.EFBIG);
    }
    WritableNodes.Node n = nodes.get(node);
    WritableNodes.Orphan orphan = n != null && n.path() == null ? n.orphan : null;
    io.hpf.archive.ArchiveReader from = orphan != null ? orphan.snapshot().reader() : committed;
    byte[] content = truncate ? new byte[0] : from.get(row);
    Pending.File file =
        new Pending.File(
            path, StagedFile.of(content, budget, spill), row.mode(), row.mtimeMillis());
    if (orphan != null) {
      file.detached = true;
    } else {
      overlay.show(file);
    }
    return file;
  }

  /** Opens staged {@code file} (under the overlay's lock). */
  private long opened(Pending.File file, boolean writes, boolean truncate) throws IOException {
    if (writes) {
      file.writers++;
      if (truncate) {
        file.content.truncate(0);
        file.dirty = true;
        file.mtimeMillis = System.currentTimeMillis();
      }
    }
    file.handles++;
    return handleFor(new Handle(file, writes, null, null));
  }

  @Override
  public Created create(long parent, String name, int flags, int mode) throws FuseError {
    String path = child(parent, name);
    return locked(
        "create",
        path,
        committed -> {
          directory(parentOf(path), committed);
          Overlay.Found f = overlay.find(path, committed);
          if (f.directory()) {
            throw new FuseError(FuseError.EISDIR);
          }
          if (f.exists() && (flags & O_EXCL) != 0) {
            throw new FuseError(FuseError.EEXIST);
          }
          Pending.File file;
          if (f.exists()) { // made meanwhile by another: opened, as open(2) without O_EXCL does
            file = f.staged() != null ? f.staged() : stageCommitted(0, path, f, true, committed);
          } else {
            file =
                new Pending.File(
                    path, new StagedFile(budget, spill), mode & 07777, System.currentTimeMillis());
            file.dirty = true;
            if (overlay.at(path) instanceof Pending.File gone) {
              cancel(gone);
            }
            overlay.show(file);
          }
          long handle = opened(file, true, (flags & O_TRUNC) != 0);
          Overlay.Found now = new Overlay.Found(file, null, false);
          return new Created(entryOf(path, now, committed), handle);
        });
  }

  @Override
  public int read(long node, long offset, int size, ByteBuffer into) throws FuseError {
    throw new FuseError(FuseError.EBADF); // every read here comes through a handle
  }

  @Override
  public int read(long node, long handle, long offset, int size, ByteBuffer into) throws FuseError {
    Handle h = handle(handle);
    try {
      if (h.file() != null) {
        return h.file().content.read(offset, size, into);
      }
      long length = h.row().rawLength();
      if (offset >= length) {
        return 0;
      }
      int n = (int) Math.min(size, length - offset);
      contents.read(handle, h.snapshot().reader(), h.row(), offset, n, into);
      return n;
    } catch (IOException | RuntimeException e) {
      String name = h.file() != null ? h.file().name : h.row().name();
      throw log.readFailed(archiveName(), name, offset, e);
    }
  }

  @Override
  public int write(long node, long handle, long offset, ByteBuffer data) throws FuseError {
    Handle h = handle(handle);
    if (!h.writes()) {
      throw new FuseError(FuseError.EBADF);
    }
    Pending.File file = h.file();
    int n = data.remaining();
    try {
      file.content.write(offset, data);
    } catch (StagedFile.FileTooLarge e) {
      throw new FuseError(FuseError.EFBIG);
    } catch (IOException e) {
      throw writeFailed(file, e);
    }
    synchronized (overlay) {
      file.dirty = true;
      file.mtimeMillis = System.currentTimeMillis();
    }
    return n;
  }

  /** A write that could not be kept: ENOSPC if the spill directory is full, else EIO. */
  private FuseError writeFailed(Pending.File file, IOException e) {
    String why = ProgramMessages.describe(e);
    log.warn(archiveName() + ": cannot stage '" + file.name + "' (not committed): " + why);
    boolean full = String.valueOf(e.getMessage()).contains("No space left");
    return new FuseError(full ? FuseError.ENOSPC : FuseError.EIO);
  }

  @Override
  public void release(long node, long handle) {
    Handle h = handles.remove(handle);
    if (h == null) {
      return;
    }
    if (h.snapshot() != null) {
      contents.forget(handle);
      release(h.snapshot());
      return;
    }
    Pending.File f = h.file();
    synchronized (overlay) {
      f.handles--;
      if (h.writes() && --f.writers == 0 && overlay.at(f.name) == f) {
        closed(f);
      }
      f.discardIfUnused();
    }
  }

  /**
   * The last writer of staged {@code f} closed it: it goes, or is let go if unchanged or broken.
   */
  private void closed(Pending.File f) {
    if (f.content.broken() != null) {
      cancel(f); // nothing of it is committed; the name shows what the archive has
      overlay.drop(f);
    } else if (f.dirty) {
      f.content.idle();
      f.queued = queue(f, true);
    } else if (!f.submittedOnce && f.queued == 0 && f.movedFrom.isEmpty()) {
      f.detached = true; // a copy of a committed file, unchanged
      overlay.drop(f);
    }
  }

  private void release(ArchiveSnapshot snapshot) {
    try {
      snapshot.release();
    } catch (IOException e) {
      log.warn(archiveName() + ": closing an old generation: " + e.getMessage());
    }
  }

  @Override
  public void fsync(long node) throws FuseError {
    WritableNodes.Node n = nodes.get(node);
    String path = n == null ? null : n.path();
    if (path != null) {
      synchronized (overlay) {
        if (overlay.at(path) instanceof Pending.File f && f.writers > 0 && f.dirty) {
          f.syncing = true; // what it holds now goes, open as it is
          f.queued = queue(f, false);
        }
      }
    }
    syncAll();
  }

  @Override
  public Attributes setAttributes(long node, long handle, AttributeChange change) throws FuseError {
    return locked(
        "change",
        String.valueOf(node),
        committed -> {
          Overlay.Found f = existing(node, committed);
          String path = nameOf(node, f);
          if (f.directory()) {
            if (change.content()) {
              throw new FuseError(FuseError.EISDIR);
            }
            return attributesOf(path, f, committed); // a directory's are derived: kept as they are
          }
          if (change.size() < 0 && change.mode() < 0 && change.mtimeMillis() == -1) {
            return attributesOf(path, f, committed); // owners, access times: not recorded
          }
          Pending.File file =
              f.staged() != null ? f.staged() : stageCommitted(node, path, f, false, committed);
          change(file, change);
          Attributes now = attributesOf(path, new Overlay.Found(file, null, false), committed);
          file.discardIfUnused(); // a copy of a deleted file that nothing holds open
          return now;
        });
  }

  private void change(Pending.File file, AttributeChange change) throws IOException, FuseError {
    if (change.size() >= 0) {
      try {
        file.content.truncate(change.size());
      } catch (StagedFile.FileTooLarge e) {
        throw new FuseError(FuseError.EFBIG);
      }
      file.mtimeMillis = System.currentTimeMillis();
    }
    if (change.mode() >= 0) {
      file.mode = change.mode();
    }
    if (change.mtimeMillis() != -1) {
      file.mtimeMillis = change.mtimeMillis();
    }
    file.dirty = true;
    if (file.writers == 0 && overlay.at(file.name) == file) {
      file.queued = queue(file, true);
    }
  }
}
