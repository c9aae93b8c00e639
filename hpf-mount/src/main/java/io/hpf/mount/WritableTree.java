package io.hpf.mount;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.Attributes;
import io.hpf.mount.fuse.FuseError;
import io.hpf.mount.fuse.WritableFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The names of a writable mount, on the {@link Overlay} over the archive's last commit: looked up,
 * listed, made, deleted and renamed under the overlay's lock. {@link WritableFiles} reads and
 * writes content; {@link WritableArchiveFs} sends what changes to the archive.
 */
abstract class WritableTree implements WritableFileSystem {
  final Overlay overlay;
  final MountLog log;
  final MemoryBudget budget;
  final Path spill;
  private final int uid;
  private final int gid;
  final WritableNodes nodes = new WritableNodes();
  private final Map<Long, Listing> listings = new ConcurrentHashMap<>();
  final AtomicLong nextHandle = new AtomicLong(1);

  private record Listing(String path, DirectoryCursor<Overlay.Child> cursor) {}

  WritableTree(Overlay overlay, MountLog log, MemoryBudget budget, Path spill, int uid, int gid) {
    this.overlay = overlay;
    this.log = log;
    this.budget = budget;
    this.spill = spill;
    this.uid = uid;
    this.gid = gid;
  }

  /** The archive's last commit, held: the caller releases it. */
  abstract ArchiveSnapshot committed() throws IOException;

  abstract String archiveName();

  /** Queues a change for the archive; returns its place. */
  abstract long queue(Pending pending, boolean settle);

  /** Returns once everything changed so far is committed. */
  abstract void syncAll() throws FuseError;

  /** A step under the overlay's lock, on the last commit. */
  interface Step<T> {
    T run(ArchiveReader committed) throws IOException, FuseError;
  }

  /**
   * Runs {@code step} under the overlay's lock, on the last commit as it is once the lock is held
   * (a change leaves the overlay only once a commit holds it, so the two agree); a failure of
   * storage is EIO and a log line.
   */
  final <T> T locked(String what, String path, Step<T> step) throws FuseError {
    try {
      synchronized (overlay) {
        ArchiveSnapshot snapshot = committed();
        try {
          return step.run(snapshot.reader());
        } finally {
          snapshot.release();
        }
      }
    } catch (IOException | RuntimeException e) {
      log.warn(
          archiveName() + ": cannot " + what + " '" + path + "': " + ProgramMessages.describe(e));
      throw new FuseError(FuseError.EIO);
    }
  }

  String pathOf(long id) throws FuseError {
    WritableNodes.Node node = nodes.get(id);
    String path = node == null ? null : node.path();
    if (path == null) {
      throw new FuseError(FuseError.ENOENT); // forgotten, or deleted while the kernel held it
    }
    return path;
  }

  /** The path of {@code name} in directory node {@code parent}; refused if no entry may have it. */
  String child(long parent, String name) throws FuseError {
    String directory = pathOf(parent);
    String path = directory.isEmpty() ? name : directory + "/" + name;
    if (ArchiveFormat.whyNotNormal(path) != null) {
      throw new FuseError(FuseError.EINVAL); // a drive letter, a name too long: no entry has it
    }
    return path;
  }

  static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  Attributes attributesOf(String path, Overlay.Found f, ArchiveReader committed) {
    long inode = ArchiveFs.inodeOf(path);
    if (f.staged() != null) {
      Pending.File s = f.staged();
      return Attributes.file(inode, s.content.size(), s.mode, s.mtimeMillis, uid, gid);
    }
    if (f.committed() != null) {
      EntryInfo r = f.committed();
      return Attributes.file(inode, r.rawLength(), r.mode(), r.mtimeMillis(), uid, gid);
    }
    return Attributes.writableDirectory(inode, committed.manifest().commitMillis(), uid, gid);
  }

  Entry entryOf(String path, Overlay.Found f, ArchiveReader committed) {
    return new Entry(nodes.lookedUp(path).id, attributesOf(path, f, committed));
  }

  Overlay.Found directory(String path, ArchiveReader committed) throws IOException, FuseError {
    Overlay.Found f = overlay.find(path, committed);
    if (!f.exists()) {
      throw new FuseError(FuseError.ENOENT);
    }
    if (!f.directory()) {
      throw new FuseError(FuseError.ENOTDIR);
    }
    return f;
  }

  @Override
  public void forget(long node, long lookups) {
    WritableNodes.Node gone = nodes.forget(node, lookups);
    if (gone != null) {
      synchronized (overlay) {
        letGo(gone.orphan);
        gone.orphan = null;
      }
    }
  }

  /**
   * Keeps what file {@code path} is now for its node, which its name is leaving (deleted,
   * replaced): a program that looked it up may still open it.
   */
  final void orphan(WritableNodes.Node node, Overlay.Found f) throws IOException {
    if (node == null || !f.file()) {
      return;
    }
    if (f.staged() != null) {
      f.staged().handles++;
      node.orphan = new WritableNodes.Orphan(f.staged(), null, null);
    } else {
      node.orphan = new WritableNodes.Orphan(null, committed(), f.committed());
    }
  }

  /** Lets go of what an orphan held (under the overlay's lock). */
  final void letGo(WritableNodes.Orphan orphan) {
    if (orphan == null) {
      return;
    }
    if (orphan.file() != null) {
      orphan.file().handles--;
      orphan.file().discardIfUnused();
    } else {
      try {
        orphan.snapshot().release();
      } catch (IOException e) {
        log.warn(archiveName() + ": closing an old generation: " + e.getMessage());
      }
    }
  }

  /** What node {@code id} is: its name's file or directory now, or its orphan. */
  final Overlay.Found resolve(long id, ArchiveReader committed) throws IOException, FuseError {
    WritableNodes.Node node = nodes.get(id);
    if (node == null) {
      throw new FuseError(FuseError.ENOENT);
    }
    String path = node.path();
    if (path != null) {
      return overlay.find(path, committed);
    }
    WritableNodes.Orphan o = node.orphan;
    if (o == null) {
      throw new FuseError(FuseError.ENOENT);
    }
    return new Overlay.Found(o.file(), o.row(), false);
  }

  @Override
  public Attributes attributes(long node) throws FuseError {
    return locked(
        "look up",
        String.valueOf(node),
        committed -> {
          Overlay.Found f = existing(node, committed);
          return attributesOf(nameOf(node, f), f, committed);
        });
  }

  /**
   * The snapshot node {@code id}'s committed file is read from, held (the caller releases it): its
   * orphan's if its name is gone, else the last commit.
   */
  final ArchiveSnapshot snapshotOf(long id) throws IOException {
    WritableNodes.Node node = nodes.get(id);
    WritableNodes.Orphan o = node == null || node.path() != null ? null : node.orphan;
    if (o != null && o.snapshot() != null && o.snapshot().acquire()) {
      return o.snapshot();
    }
    return committed();
  }

  /** What node {@code id} is, as {@link #resolve}; ENOENT if nothing. */
  final Overlay.Found existing(long id, ArchiveReader committed) throws IOException, FuseError {
    Overlay.Found f = resolve(id, committed);
    if (!f.exists()) {
      throw new FuseError(FuseError.ENOENT);
    }
    return f;
  }

  /** The name node {@code id} has, or its orphan had. */
  final String nameOf(long id, Overlay.Found f) {
    WritableNodes.Node node = nodes.get(id);
    String path = node == null ? null : node.path();
    if (path != null) {
      return path;
    }
    return f.staged() != null ? f.staged().name : f.committed().name();
  }

  // ---- Listings ----

  @Override
  public long openDirectory(long node) throws FuseError {
    String path = pathOf(node);
    List<Overlay.Child> children =
        locked(
            "list",
            path,
            committed -> {
              directory(path, committed);
              return overlay.children(path, committed);
            });
    long handle = nextHandle.getAndIncrement();
    listings.put(
        handle,
        new Listing(
            path,
            new DirectoryCursor<>(
                children::iterator, new Overlay.Child(".", true), new Overlay.Child("..", true))));
    return handle;
  }

  @Override
  public void readDirectory(long node, long handle, long offset, DirectorySink sink)
      throws FuseError {
    Listing listing = listings.get(handle);
    if (listing == null) {
      throw new FuseError(FuseError.EBADF);
    }
    try {
      listing.cursor().fill(offset, (c, position) -> add(listing.path(), c, position, sink));
    } catch (IOException | java.io.UncheckedIOException e) {
      log.warn(
          archiveName() + ": cannot list '" + listing.path() + "': " + ProgramMessages.describe(e));
      throw new FuseError(FuseError.EIO);
    }
  }

  /** One child into the kernel's reply, with its attributes as they are now; false: it is full. */
  private boolean add(String directory, Overlay.Child c, long position, DirectorySink sink) {
    if (!sink.fits(c.name())) {
      return false;
    }
    String path =
        position == 1
            ? directory
            : position == 2
                ? parentOf(directory)
                : directory.isEmpty() ? c.name() : directory + "/" + c.name();
    try {
      Entry e =
          locked(
              "list",
              path,
              committed -> {
                Overlay.Found f = overlay.find(path, committed);
                Attributes a =
                    f.exists()
                        ? attributesOf(path, f, committed)
                        : attributesOf(path, Overlay.Found.DIRECTORY, committed);
                boolean node = sink.withNodes() && position > 2 && f.exists();
                return new Entry(node ? nodes.lookedUp(path).id : 0, a);
              });
      sink.add(c.name(), position, e);
      return true;
    } catch (FuseError gone) {
      throw new java.io.UncheckedIOException(new IOException("a listing failed"));
    }
  }

  @Override
  public void releaseDirectory(long handle) {
    listings.remove(handle);
  }

  @Override
  public Usage usage() {
    try {
      ArchiveSnapshot s = committed();
      try {
        return new Usage(s.reader().manifest().partBytes(), s.reader().entryCount());
      } finally {
        s.release();
      }
    } catch (IOException e) {
      return new Usage(0, 0);
    }
  }
}
