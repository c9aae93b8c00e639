package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import io.hpf.mount.fuse.FuseError;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The names of a writable mount, on the {@link Overlay} over the archive's last commit: looked up,
 * listed, made, deleted and renamed under the overlay's lock. {@link WritableFiles} reads and
 * writes content; {@link WritableArchiveFs} sends what changes to the archive.
 */
abstract class WritableNames extends WritableTree {
  WritableNames(Overlay overlay, MountLog log, MemoryBudget budget, Path spill, int uid, int gid) {
    super(overlay, log, budget, spill, uid, gid);
  }

  @Override
  public Entry lookup(long parent, String name) throws FuseError {
    String path = child(parent, name);
    return locked(
        "look up",
        path,
        committed -> {
          Overlay.Found f = overlay.find(path, committed);
          if (!f.exists()) {
            throw new FuseError(FuseError.ENOENT);
          }
          return entryOf(path, f, committed);
        });
  }

  @Override
  public Entry makeDirectory(long parent, String name, int mode) throws FuseError {
    String path = child(parent, name);
    return locked(
        "make directory",
        path,
        committed -> {
          directory(parentOf(path), committed);
          if (overlay.find(path, committed).exists()) {
            throw new FuseError(FuseError.EEXIST);
          }
          overlay.makeDirectory(path);
          return entryOf(path, Overlay.Found.DIRECTORY, committed);
        });
  }

  @Override
  public void removeDirectory(long parent, String name) throws FuseError {
    String path = child(parent, name);
    locked(
        "remove directory",
        path,
        committed -> {
          directory(path, committed);
          if (!overlay.isEmpty(path, committed)) {
            throw new FuseError(FuseError.ENOTEMPTY);
          }
          overlay.removeDirectory(path);
          overlay.keepDirectory(parentOf(path));
          nodes.detach(path, true);
          return null;
        });
  }

  @Override
  public void unlink(long parent, String name) throws FuseError {
    String path = child(parent, name);
    locked(
        "delete",
        path,
        committed -> {
          Overlay.Found f = overlay.find(path, committed);
          if (!f.exists()) {
            throw new FuseError(FuseError.ENOENT);
          }
          if (f.directory()) {
            throw new FuseError(FuseError.EISDIR);
          }
          orphan(nodes.detach(path, false), f);
          delete(path, committed);
          overlay.keepDirectory(parentOf(path));
          return null;
        });
  }

  /**
   * Deletes file {@code path}: a staged file is let go (the names it moved from still deleted), and
   * the archive is told if a commit has the name or may come to.
   */
  void delete(String path, ArchiveReader committed) throws IOException {
    Pending before = overlay.at(path);
    boolean inArchive = committed.stat(path) != null;
    if (before instanceof Pending.File f) {
      inArchive |= f.submittedOnce;
      cancel(f);
    }
    if (inArchive) {
      Pending.Deleted d = new Pending.Deleted(path);
      overlay.show(d);
      d.queued = queue(d, false);
    } else if (before != null) {
      overlay.drop(before);
    }
  }

  /** A staged file replaced or deleted before it went: the names it moved from go without it. */
  void cancel(Pending.File f) {
    f.queued = 0;
    f.detached = true;
    for (String from : f.movedFrom) {
      if (overlay.at(from) instanceof Pending.Deleted d && d.owner == f) {
        d.owner = null;
        d.queued = queue(d, false);
      }
    }
    f.movedFrom.clear();
    f.discardIfUnused();
  }

  @Override
  public void rename(long parent, String name, long newParent, String newName, boolean noReplace)
      throws FuseError {
    String from = child(parent, name);
    String to = child(newParent, newName);
    if (from.equals(to)) {
      return;
    }
    locked(
        "rename",
        from,
        committed -> {
          Overlay.Found source = overlay.find(from, committed);
          if (!source.exists()) {
            throw new FuseError(FuseError.ENOENT);
          }
          directory(parentOf(to), committed);
          if (to.startsWith(from + "/")) {
            throw new FuseError(FuseError.EINVAL); // a directory into itself
          }
          Overlay.Found target = overlay.find(to, committed);
          if (target.exists()) {
            if (noReplace) {
              throw new FuseError(FuseError.EEXIST);
            }
            if (source.directory() != target.directory()) {
              throw new FuseError(source.directory() ? FuseError.ENOTDIR : FuseError.EISDIR);
            }
            if (target.directory() && !overlay.isEmpty(to, committed)) {
              throw new FuseError(FuseError.ENOTEMPTY);
            }
          }
          orphan(nodes.detach(to, target.directory()), target);
          if (source.directory()) {
            overlay.removeDirectory(to);
            moveDirectory(from, to, committed);
          } else {
            moveFile(from, to, source, committed);
          }
          overlay.keepDirectory(parentOf(from));
          nodes.move(from, to, source.directory());
          return null;
        });
  }

  /**
   * Moves file {@code from} to {@code to}, replacing what is there: the file is staged at its new
   * name (a committed one copied), and its old name deleted in the commit that puts it.
   */
  private Pending.File moveFile(
      String from, String to, Overlay.Found source, ArchiveReader committed) throws IOException {
    Pending.File f = source.staged();
    if (f == null) {
      EntryInfo row = source.committed();
      f =
          new Pending.File(
              from,
              StagedFile.of(committed.get(row), budget, spill),
              row.mode(),
              row.mtimeMillis());
    } else {
      overlay.drop(f);
    }
    Pending there = overlay.at(to);
    if (there instanceof Pending.File replaced) {
      cancel(replaced);
      overlay.drop(replaced);
    }
    if (committed.stat(from) != null || f.submittedOnce) {
      Pending.Deleted d = new Pending.Deleted(from);
      d.owner = f;
      overlay.show(d);
      f.movedFrom.add(from);
    }
    f.movedFrom.remove(to);
    f.name = to;
    f.submittedOnce = false;
    f.dirty = true;
    overlay.show(f);
    if (f.writers == 0) {
      f.queued = queue(f, true);
    }
    return f;
  }

  /** Moves every file under {@code from} to under {@code to}, and the directories kept there. */
  private void moveDirectory(String from, String to, ArchiveReader committed) throws IOException {
    String prefix = from + "/";
    java.util.Iterator<EntryInfo> rows = committed.list(prefix);
    List<EntryInfo> kept = new java.util.ArrayList<>();
    while (rows.hasNext()) {
      EntryInfo row = rows.next();
      if (overlay.at(row.name()) == null) {
        kept.add(row);
      }
    }
    List<Pending.File> moved = new java.util.ArrayList<>();
    for (Pending.File f : overlay.stagedFilesUnder(from)) {
      String name = f.name;
      moved.add(
          moveFile(
              name,
              to + name.substring(from.length()),
              new Overlay.Found(f, null, false),
              committed));
    }
    for (EntryInfo row : kept) {
      String name = row.name();
      moved.add(
          moveFile(
              name,
              to + name.substring(from.length()),
              new Overlay.Found(null, row, false),
              committed));
    }
    for (Pending.File f : moved) {
      f.together = moved; // one commit moves them all: readers see the old tree or the new
    }
    overlay.moveDirectories(from, to);
    overlay.removeDirectory(from);
  }
}
