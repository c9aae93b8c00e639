package io.hpf.mount;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.EntryInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jnr.ffi.Pointer;
import jnr.ffi.types.off_t;
import jnr.ffi.types.size_t;
import ru.serce.jnrfuse.ErrorCodes;
import ru.serce.jnrfuse.FuseFillDir;
import ru.serce.jnrfuse.FuseStubFS;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;
import ru.serce.jnrfuse.struct.Statvfs;

/**
 * The FUSE operations of a mount, over its {@link MountedArchives}: attributes from the index and
 * catalogs, listings from the catalogs a page at a time ({@link DirectoryCursor}), content through
 * open files ({@link OpenFile}); every change is refused with EROFS. Open files and listings are
 * handles numbered here, each holding the snapshot it began in. An error reading one entry is EIO
 * for that file and a line in the log naming archive, entry and what was wrong; the mount serves
 * the rest.
 */
final class ArchiveFs extends FuseStubFS {
  private static final int O_ACCMODE = 3;
  private static final int O_RDONLY = 0;
  private static final long ROOT_INODE = 1;

  private final MountedArchives archives;
  private final long mountedMillis = System.currentTimeMillis();
  private final MountLog log;
  private final MemoryBudget budget;
  private final int uid;
  private final int gid;
  private final Map<Long, OpenFile> open = new ConcurrentHashMap<>();
  private final Map<Long, DirectoryCursor> directories = new ConcurrentHashMap<>();
  private final AtomicLong nextHandle = new AtomicLong(1);
  private final PageCacheRule pageCache = new PageCacheRule();
  private final KernelNotices notices;

  /** Where reads copy content before handing it to the kernel: one buffer per libfuse thread. */
  private static final ThreadLocal<byte[]> READ_BUFFER = ThreadLocal.withInitial(() -> new byte[0]);

  ArchiveFs(MountedArchives archives, MountLog log, MemoryBudget budget, int uid, int gid) {
    this.archives = archives;
    this.log = log;
    this.budget = budget;
    this.uid = uid;
    this.gid = gid;
    this.notices = new KernelNotices(log);
  }

  /** libfuse is ready: the kernel can be told what to forget from now on. */
  @Override
  public Pointer init(Pointer conn) {
    notices.attach(getContext().fuse.get());
    return null;
  }

  /** Where the refresher tells of a commit. */
  KernelNotices notices() {
    return notices;
  }

  /** Inode numbers stable for the mount's life, whatever commits come: from the name alone. */
  static long inodeOf(String name) {
    if (name.isEmpty()) {
      return ROOT_INODE;
    }
    long h = ArchiveFormat.hash64(name.getBytes(StandardCharsets.UTF_8)) & Long.MAX_VALUE;
    return h <= ROOT_INODE ? h + 2 : h;
  }

  @Override
  public int getattr(String path, FileStat stat) {
    String name = ArchiveTree.nameOf(path);
    try {
      MountedArchives.Place place = archives.resolve(path);
      if (place == null) {
        if (!archives.isIdDirectory(path)) {
          return -ErrorCodes.ENOENT();
        }
        directoryStat(stat, name, mountedMillis);
        return 0;
      }
      ArchiveSnapshot snapshot = place.archive().acquire();
      try {
        ArchiveTree.Node node = ArchiveTree.lookup(snapshot.reader(), place.inside());
        if (!node.exists()) {
          return -ErrorCodes.ENOENT();
        }
        if (node.file() != null) {
          fileStat(stat, node.file(), name);
        } else {
          directoryStat(stat, name, snapshot.reader().manifest().commitMillis());
        }
        return 0;
      } finally {
        release(snapshot);
      }
    } catch (IOException | RuntimeException e) {
      return failed("cannot look up", path, e);
    }
  }

  /**
   * The attributes of an open file: of the entry it was opened on, whatever commits came since, so
   * that its size stays that of the bytes it reads.
   */
  @Override
  public int fgetattr(String path, FileStat stat, FuseFileInfo fi) {
    OpenFile file = open.get(fi.fh.get());
    if (file == null) {
      return getattr(path, stat);
    }
    fileStat(stat, file.row(), ArchiveTree.nameOf(path));
    return 0;
  }

  /** A file's attributes; {@code name} is its path in the mount, which its inode comes from. */
  private void fileStat(FileStat stat, EntryInfo row, String name) {
    stat.st_mode.set(FileStat.S_IFREG | (row.mode() & 07777));
    stat.st_ino.set(inodeOf(name));
    stat.st_nlink.set(1);
    stat.st_size.set(row.rawLength());
    stat.st_blocks.set((row.rawLength() + 511) / 512);
    setTimes(stat, row.mtimeMillis());
    stat.st_uid.set(uid);
    stat.st_gid.set(gid);
  }

  private void directoryStat(FileStat stat, String name, long mtimeMillis) {
    stat.st_mode.set(FileStat.S_IFDIR | 0555);
    stat.st_ino.set(inodeOf(name));
    stat.st_nlink.set(1); // unknown: find must not count subdirectories from it
    setTimes(stat, mtimeMillis);
    stat.st_uid.set(uid);
    stat.st_gid.set(gid);
  }

  private static void setTimes(FileStat stat, long millis) {
    long seconds = Math.floorDiv(millis, 1000);
    long nanos = Math.floorMod(millis, 1000) * 1_000_000L;
    stat.st_mtim.tv_sec.set(seconds);
    stat.st_mtim.tv_nsec.set(nanos);
    stat.st_ctim.tv_sec.set(seconds);
    stat.st_ctim.tv_nsec.set(nanos);
    stat.st_atim.tv_sec.set(seconds);
    stat.st_atim.tv_nsec.set(nanos);
  }

  /** Starts a listing: a cursor over the directory's children, in the snapshot of now. */
  @Override
  public int opendir(String path, FuseFileInfo fi) {
    try {
      MountedArchives.Place place = archives.resolve(path);
      DirectoryCursor cursor;
      if (place == null) {
        if (!archives.isIdDirectory(path)) {
          return -ErrorCodes.ENOENT();
        }
        List<String> names = new ArrayList<>();
        archives.idChildren(path, names::add);
        cursor = new DirectoryCursor(names::iterator, null);
      } else {
        cursor = archiveCursor(place);
        if (cursor == null) {
          return -ErrorCodes.ENOENT();
        }
      }
      long handle = nextHandle.getAndIncrement();
      directories.put(handle, cursor);
      fi.fh.set(handle);
      return 0;
    } catch (NotADirectory e) {
      return -ErrorCodes.ENOTDIR();
    } catch (IOException | RuntimeException e) {
      return failed("cannot list", path, e);
    }
  }

  /** Thrown by {@link #archiveCursor} for a file. */
  private static final class NotADirectory extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** A cursor over a directory in an archive, holding its snapshot; null if there is none. */
  private DirectoryCursor archiveCursor(MountedArchives.Place place) throws IOException {
    ArchiveSnapshot snapshot = place.archive().acquire();
    boolean kept = false;
    try {
      ArchiveTree.Node node = ArchiveTree.lookup(snapshot.reader(), place.inside());
      if (!node.exists()) {
        return null;
      }
      if (!node.directory()) {
        throw new NotADirectory();
      }
      String inside = place.inside();
      DirectoryCursor cursor =
          new DirectoryCursor(() -> ArchiveTree.childNames(snapshot.reader(), inside), snapshot);
      kept = true;
      return cursor;
    } finally {
      if (!kept) {
        release(snapshot);
      }
    }
  }

  /** The next page of a listing: as many names as the kernel's buffer takes, from its offset. */
  @Override
  public int readdir(
      String path, Pointer buf, FuseFillDir filler, @off_t long offset, FuseFileInfo fi) {
    DirectoryCursor cursor = directories.get(fi.fh.get());
    if (cursor == null) {
      return -ErrorCodes.EBADF();
    }
    try {
      cursor.fill(offset, (name, position) -> filler.apply(buf, name, null, position) == 0);
      return 0;
    } catch (IOException | RuntimeException e) {
      return failed("cannot list", path, e);
    }
  }

  @Override
  public int releasedir(String path, FuseFileInfo fi) {
    DirectoryCursor cursor = directories.remove(fi.fh.get());
    if (cursor != null) {
      try {
        cursor.close();
      } catch (IOException e) {
        log.warn(archives.location() + ": closing a listing: " + e.getMessage());
      }
    }
    return 0;
  }

  @Override
  public int open(String path, FuseFileInfo fi) {
    if ((fi.flags.get() & O_ACCMODE) != O_RDONLY) {
      return -ErrorCodes.EROFS();
    }
    try {
      MountedArchives.Place place = archives.resolve(path);
      if (place == null) {
        return archives.isIdDirectory(path) ? -ErrorCodes.EISDIR() : -ErrorCodes.ENOENT();
      }
      ArchiveSnapshot snapshot = place.archive().acquire();
      boolean kept = false;
      try {
        ArchiveTree.Node node = ArchiveTree.lookup(snapshot.reader(), place.inside());
        if (!node.exists()) {
          return -ErrorCodes.ENOENT();
        }
        if (node.file() == null) {
          return -ErrorCodes.EISDIR();
        }
        long handle = nextHandle.getAndIncrement();
        open.put(handle, new OpenFile(place.archive().name(), snapshot, node.file(), budget));
        kept = true;
        fi.fh.set(handle);
        if (pageCache.unchangedSinceLastOpen(path, node.file())) {
          PageCacheRule.keepCache(fi);
        }
        return 0;
      } finally {
        if (!kept) {
          release(snapshot);
        }
      }
    } catch (IOException | RuntimeException e) {
      return failed("cannot open", path, e);
    }
  }

  @Override
  public int read(
      String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
    OpenFile file = open.get(fi.fh.get());
    if (file == null) {
      return -ErrorCodes.EBADF();
    }
    try {
      int wanted = (int) Math.min(size, 1 << 20);
      byte[] bytes = READ_BUFFER.get();
      if (bytes.length < wanted) {
        bytes = new byte[wanted];
        READ_BUFFER.set(bytes);
      }
      int n = file.read(offset, bytes, wanted);
      buf.put(0, bytes, 0, n);
      return n;
    } catch (IOException | RuntimeException e) {
      log.warn(file.archiveName() + ": cannot read '" + file.row().name() + "': " + e.getMessage());
      return -ErrorCodes.EIO();
    }
  }

  @Override
  public int release(String path, FuseFileInfo fi) {
    OpenFile file = open.remove(fi.fh.get());
    if (file != null) {
      try {
        file.close();
      } catch (IOException | RuntimeException e) {
        log.warn(file.archiveName() + ": closing '" + file.row().name() + "': " + e.getMessage());
      }
    }
    return 0;
  }

  @Override
  public int statfs(String path, Statvfs stbuf) {
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
    stbuf.f_bsize.set(4096);
    stbuf.f_frsize.set(4096);
    stbuf.f_blocks.set((bytes + 4095) / 4096);
    stbuf.f_bfree.set(0);
    stbuf.f_bavail.set(0);
    stbuf.f_files.set(entries);
    stbuf.f_ffree.set(0);
    stbuf.f_namemax.set(255);
    stbuf.f_flag.set(Statvfs.ST_RDONLY);
    return 0;
  }

  /** Logs what went wrong with {@code path} in one line and answers EIO. */
  private int failed(String what, String path, Exception e) {
    log.warn(
        archives.location()
            + ": "
            + what
            + " '"
            + ArchiveTree.nameOf(path)
            + "': "
            + e.getMessage());
    return -ErrorCodes.EIO();
  }

  private void release(ArchiveSnapshot snapshot) {
    try {
      snapshot.release();
    } catch (IOException e) {
      log.warn(archives.location() + ": closing an old generation: " + e.getMessage());
    }
  }

  // A read-only file system: every change is refused (the mount is also made with -o ro).

  @Override
  public int create(String path, long mode, FuseFileInfo fi) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int mkdir(String path, long mode) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int unlink(String path) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int rmdir(String path) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int rename(String oldpath, String newpath) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int truncate(String path, long size) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int write(
      String path, Pointer buf, @size_t long size, @off_t long offset, FuseFileInfo fi) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int chmod(String path, long mode) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int chown(String path, long uid, long gid) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int symlink(String oldpath, String newpath) {
    return -ErrorCodes.EROFS();
  }

  @Override
  public int link(String oldpath, String newpath) {
    return -ErrorCodes.EROFS();
  }
}
