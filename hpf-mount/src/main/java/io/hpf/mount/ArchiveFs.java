package io.hpf.mount;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.LiveArchive;
import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.ProgramMessages;
import io.hpf.mount.fuse.Attributes;
import io.hpf.mount.fuse.FuseError;
import io.hpf.mount.fuse.ReadOnlyFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The file system a mount shows, over its {@link MountedArchives}: nodes ({@link Nodes}) from the
 * index and catalogs, listings from the catalogs a page at a time ({@link DirectoryCursor}),
 * content through the one entry reader ({@link FileContents}). A listing holds the snapshot it
 * began in; a file's node the one it was found in. An error reading one entry is EIO for that file
 * and a line in the log naming archive, entry and what was wrong; the mount serves the rest.
 */
final class ArchiveFs implements ReadOnlyFileSystem {
  private static final long ROOT_INODE = 1;

  private final MountedArchives archives;
  private final MountLog log;
  private final int uid;
  private final int gid;
  private final Nodes nodes = new Nodes();
  private final FileContents contents;
  private final Map<Long, Listing> listings = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(1);

  ArchiveFs(MountedArchives archives, MountLog log, MemoryBudget budget, int uid, int gid) {
    this.archives = archives;
    this.log = log;
    this.contents = new FileContents(budget);
    this.uid = uid;
    this.gid = gid;
  }

  /** Inode numbers stable for the mount's life, whatever commits come: from the path alone. */
  static long inodeOf(String path) {
    if (path.isEmpty()) {
      return ROOT_INODE;
    }
    long h = ArchiveFormat.hash64(path.getBytes(StandardCharsets.UTF_8)) & Long.MAX_VALUE;
    return h <= ROOT_INODE ? h + 2 : h;
  }

  private static String child(String directory, String name) {
    return directory.isEmpty() ? name : directory + "/" + name;
  }

  private Nodes.Node node(long id) throws FuseError {
    Nodes.Node node = nodes.get(id);
    if (node == null) {
      throw new FuseError(FuseError.ENOENT); // forgotten: the kernel does not ask after that
    }
    return node;
  }

  @Override
  public Entry lookup(long parent, String name) throws FuseError {
    Nodes.Node directory = node(parent);
    if (!directory.directory()) {
      throw new FuseError(FuseError.ENOTDIR);
    }
    String path = child(directory.path, name);
    try {
      MountedArchives.Place place = archives.resolve(path);
      if (place == null) {
        if (!archives.isIdDirectory(path)) {
          throw new FuseError(FuseError.ENOENT);
        }
        return new Entry(
            nodes.directory(path).id, directoryAttributes(path, archives.idsChangedMillis()));
      }
      ArchiveSnapshot snapshot = place.archive().acquire();
      try {
        ArchiveTree.Node found = ArchiveTree.lookup(snapshot.reader(), place.inside());
        if (!found.exists()) {
          throw new FuseError(FuseError.ENOENT);
        }
        return entry(path, place.archive(), snapshot, found.file());
      } finally {
        release(snapshot);
      }
    } catch (IOException | RuntimeException e) {
      throw failed("cannot look up", path, e);
    }
  }

  /**
   * The node of {@code path} found in {@code snapshot}: a file on {@code row}, else a directory.
   */
  private Entry entry(String path, LiveArchive archive, ArchiveSnapshot snapshot, EntryInfo row) {
    if (row == null) {
      long commit = snapshot.reader().manifest().commitMillis();
      return new Entry(nodes.directory(path).id, directoryAttributes(path, commit));
    }
    Nodes.Node node = nodes.file(path, archive, snapshot, row);
    return new Entry(node.id, fileAttributes(node.path, node.row));
  }

  @Override
  public void forget(long id, long lookups) {
    Nodes.Node gone = nodes.forget(id, lookups);
    if (gone != null && gone.snapshot != null) {
      contents.forget(id);
      release(gone.snapshot);
    }
  }

  @Override
  public Attributes attributes(long id) throws FuseError {
    Nodes.Node node = node(id);
    if (!node.directory()) {
      return fileAttributes(node.path, node.row);
    }
    try {
      MountedArchives.Place place = archives.resolve(node.path);
      if (place == null) {
        return directoryAttributes(node.path, archives.idsChangedMillis());
      }
      ArchiveSnapshot snapshot = place.archive().acquire();
      try {
        return directoryAttributes(node.path, snapshot.reader().manifest().commitMillis());
      } finally {
        release(snapshot);
      }
    } catch (IOException | RuntimeException e) {
      throw failed("cannot look up", node.path, e);
    }
  }

  private Attributes fileAttributes(String path, EntryInfo row) {
    return Attributes.file(inodeOf(path), row.rawLength(), row.mode(), row.mtimeMillis(), uid, gid);
  }

  private Attributes directoryAttributes(String path, long mtimeMillis) {
    return Attributes.directory(inodeOf(path), mtimeMillis, uid, gid);
  }

  /**
   * A listing being read: where it stands and, for a directory in an archive, the archive and the
   * snapshot it began in (null for a directory of archive ids).
   */
  private record Listing(
      String path,
      DirectoryCursor<ArchiveTree.Child> cursor,
      LiveArchive archive,
      ArchiveSnapshot snapshot,
      long mtimeMillis) {}

  private static final ArchiveTree.Child DOT = new ArchiveTree.Child(".", null);
  private static final ArchiveTree.Child DOT_DOT = new ArchiveTree.Child("..", null);

  @Override
  public long openDirectory(long id) throws FuseError {
    Nodes.Node directory = node(id);
    if (!directory.directory()) {
      throw new FuseError(FuseError.ENOTDIR);
    }
    String path = directory.path;
    try {
      MountedArchives.Place place = archives.resolve(path);
      Listing listing = place == null ? idListing(path) : archiveListing(path, place);
      long handle = nextHandle.getAndIncrement();
      listings.put(handle, listing);
      return handle;
    } catch (IOException | RuntimeException e) {
      throw failed("cannot list", path, e);
    }
  }

  private Listing idListing(String path) throws FuseError {
    if (!archives.isIdDirectory(path)) {
      throw new FuseError(FuseError.ENOENT);
    }
    List<ArchiveTree.Child> children = new ArrayList<>();
    archives.idChildren(path, name -> children.add(new ArchiveTree.Child(name, null)));
    return new Listing(
        path,
        new DirectoryCursor<>(children::iterator, DOT, DOT_DOT),
        null,
        null,
        archives.idsChangedMillis());
  }

  private Listing archiveListing(String path, MountedArchives.Place place)
      throws IOException, FuseError {
    ArchiveSnapshot snapshot = place.archive().acquire();
    boolean kept = false;
    try {
      ArchiveTree.Node found = ArchiveTree.lookup(snapshot.reader(), place.inside());
      if (!found.exists()) {
        throw new FuseError(FuseError.ENOENT);
      }
      if (!found.directory()) {
        throw new FuseError(FuseError.ENOTDIR);
      }
      String inside = place.inside();
      DirectoryCursor<ArchiveTree.Child> cursor =
          new DirectoryCursor<>(
              () -> ArchiveTree.children(snapshot.reader(), inside), DOT, DOT_DOT);
      long commit = snapshot.reader().manifest().commitMillis();
      kept = true;
      return new Listing(path, cursor, place.archive(), snapshot, commit);
    } finally {
      if (!kept) {
        release(snapshot);
      }
    }
  }

  @Override
  public void readDirectory(long id, long handle, long offset, DirectorySink sink)
      throws FuseError {
    Listing listing = listings.get(handle);
    if (listing == null) {
      throw new FuseError(FuseError.EBADF);
    }
    try {
      listing.cursor().fill(offset, (child, position) -> add(listing, child, position, sink));
    } catch (IOException | RuntimeException e) {
      throw failed("cannot list", listing.path(), e);
    }
  }

  /** Adds one child of a listing to the kernel's reply; false if it does not fit. */
  private boolean add(Listing listing, ArchiveTree.Child child, long position, DirectorySink sink) {
    if (!sink.fits(child.name())) {
      return false;
    }
    Entry entry;
    if (position <= 2) { // "." and ".." (DirectoryCursor's positions)
      String path = position == 1 ? listing.path() : parentOf(listing.path());
      entry = new Entry(0, directoryAttributes(path, listing.mtimeMillis()));
    } else {
      String path = child(listing.path(), child.name());
      if (sink.withNodes() && listing.snapshot() != null) {
        entry = entry(path, listing.archive(), listing.snapshot(), child.file());
      } else if (child.file() != null) {
        entry = new Entry(0, fileAttributes(path, child.file()));
      } else {
        entry = new Entry(0, directoryAttributes(path, listing.mtimeMillis()));
      }
    }
    sink.add(child.name(), position, entry);
    return true;
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  @Override
  public void releaseDirectory(long handle) {
    Listing listing = listings.remove(handle);
    if (listing != null && listing.snapshot() != null) {
      release(listing.snapshot());
    }
  }

  @Override
  public int read(long id, long offset, int size, ByteBuffer into) throws FuseError {
    Nodes.Node node = node(id);
    if (node.directory()) {
      throw new FuseError(FuseError.EISDIR);
    }
    long length = node.row.rawLength();
    if (offset >= length) {
      return 0;
    }
    int n = (int) Math.min(size, length - offset);
    try {
      contents.read(id, node.snapshot.reader(), node.row, offset, n, into);
      return n;
    } catch (IOException | RuntimeException e) {
      throw log.readFailed(node.archive.name(), node.row.name(), offset, e);
    }
  }

  @Override
  public Usage usage() {
    long bytes = 0;
    long entries = 0;
    for (LiveArchive archive : archives.openArchives().values()) {
      try {
        ArchiveSnapshot snapshot = archive.acquire();
        try {
          bytes += snapshot.reader().manifest().partBytes();
          entries += snapshot.reader().entryCount();
        } finally {
          release(snapshot);
        }
      } catch (IOException gone) {
        // closed meanwhile: it counts no more
      }
    }
    return new Usage(bytes, entries);
  }

  /** Logs what went wrong with {@code path} in one line; the request is answered EIO. */
  private FuseError failed(String what, String path, Exception e) {
    log.warn(archives.location() + ": " + what + " '" + path + "': " + ProgramMessages.describe(e));
    return new FuseError(FuseError.EIO);
  }

  private void release(ArchiveSnapshot snapshot) {
    try {
      snapshot.release();
    } catch (IOException e) {
      log.warn(archives.location() + ": closing an old generation: " + e.getMessage());
    }
  }

  /** The nodes the kernel knows now (for tests and the log). */
  int knownNodes() {
    return nodes.size();
  }
}
