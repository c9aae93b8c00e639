package io.hpf.mount.fuse;

import java.nio.ByteBuffer;

/**
 * The FUSE kernel protocol's numbers and the layouts hpf writes ({@code linux/fuse.h}, version
 * 7.31): requests are a 40-byte header and their arguments, replies a 16-byte header and theirs, in
 * the machine's byte order.
 */
final class Wire {
  private Wire() {}

  static final int MAJOR = 7;
  static final int MINOR = 31;

  static final int IN_HEADER = 40;
  static final int OUT_HEADER = 16;

  // Opcodes.
  static final int LOOKUP = 1;
  static final int FORGET = 2;
  static final int GETATTR = 3;
  static final int SETATTR = 4;
  static final int SYMLINK = 6;
  static final int MKNOD = 8;
  static final int MKDIR = 9;
  static final int UNLINK = 10;
  static final int RMDIR = 11;
  static final int RENAME = 12;
  static final int LINK = 13;
  static final int OPEN = 14;
  static final int READ = 15;
  static final int WRITE = 16;
  static final int STATFS = 17;
  static final int RELEASE = 18;
  static final int FSYNC = 20;
  static final int SETXATTR = 21;
  static final int REMOVEXATTR = 24;
  static final int FLUSH = 25;
  static final int INIT = 26;
  static final int OPENDIR = 27;
  static final int READDIR = 28;
  static final int RELEASEDIR = 29;
  static final int FSYNCDIR = 30;
  static final int CREATE = 35;
  static final int INTERRUPT = 36;
  static final int DESTROY = 38;
  static final int NOTIFY_REPLY = 41;
  static final int BATCH_FORGET = 42;
  static final int FALLOCATE = 43;
  static final int READDIRPLUS = 44;
  static final int RENAME2 = 45;
  static final int COPY_FILE_RANGE = 47;
  static final int TMPFILE = 51;

  // INIT flags asked for: reads in parallel, listings with attributes, parallel lookups, and
  // replies of more than 32 pages.
  static final int ASYNC_READ = 1;
  static final int ATOMIC_O_TRUNC = 1 << 3;
  static final int BIG_WRITES = 1 << 5;
  static final int DO_READDIRPLUS = 1 << 13;
  static final int PARALLEL_DIROPS = 1 << 18;
  static final int MAX_PAGES = 1 << 22;

  // Open flags: the kernel keeps a directory's listing, and its pages across opens.
  static final int FOPEN_KEEP_CACHE = 1 << 1;
  static final int FOPEN_CACHE_DIR = 1 << 3;

  // Notifications (written with a unique of 0 and the code in the error field).
  static final int NOTIFY_INVAL_ENTRY = 3;

  static final int ATTR_SIZE = 88;
  static final int ENTRY_SIZE = 40 + ATTR_SIZE;
  static final int DIRENT_HEADER = 24;

  /** {@code struct fuse_attr}. */
  static void putAttributes(ByteBuffer out, Attributes a) {
    long seconds = Math.floorDiv(a.mtimeMillis(), 1000);
    int nanos = (int) Math.floorMod(a.mtimeMillis(), 1000) * 1_000_000;
    out.putLong(a.inode()).putLong(a.size()).putLong((a.size() + 511) / 512);
    out.putLong(seconds).putLong(seconds).putLong(seconds); // atime, mtime, ctime
    out.putInt(nanos).putInt(nanos).putInt(nanos);
    out.putInt(a.mode()).putInt(1).putInt(a.uid()).putInt(a.gid()); // nlink 1: find counts none
    out.putInt(0).putInt(4096).putInt(0); // rdev, blksize, flags
  }

  /** {@code struct fuse_entry_out}: node, generation 0 (ids are never reused), validity. */
  static void putEntry(ByteBuffer out, ReadOnlyFileSystem.Entry e, long validSeconds) {
    long valid = e.node() == 0 ? 0 : validSeconds;
    out.putLong(e.node()).putLong(0).putLong(valid).putLong(valid).putInt(0).putInt(0);
    putAttributes(out, e.attributes());
  }

  /** The length of a {@code struct fuse_dirent} of a name this long: padded to 8 bytes. */
  static int direntLength(int nameLength) {
    return (DIRENT_HEADER + nameLength + 7) & ~7;
  }

  /** {@code struct fuse_dirent}, its padding zeroed. */
  static void putDirent(ByteBuffer out, long inode, long next, int type, byte[] name) {
    int start = out.position();
    out.putLong(inode).putLong(next).putInt(name.length).putInt(type).put(name);
    int end = start + direntLength(name.length);
    while (out.position() < end) {
      out.put((byte) 0);
    }
  }
}
