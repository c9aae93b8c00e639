package io.hpf.mount.fuse;

/**
 * What {@code stat} shows of a file or directory.
 *
 * @param inode the inode number programs see (not the kernel's node id)
 * @param mode file type and permission bits, as {@code st_mode}
 */
public record Attributes(long inode, long size, int mode, long mtimeMillis, int uid, int gid) {
  public static final int S_IFDIR = 0040000;
  public static final int S_IFREG = 0100000;
  private static final int S_IFMT = 0170000;

  /** A directory anyone may list. */
  public static Attributes directory(long inode, long mtimeMillis, int uid, int gid) {
    return new Attributes(inode, 0, S_IFDIR | 0555, mtimeMillis, uid, gid);
  }

  /** A directory anyone may list and its owner change. */
  public static Attributes writableDirectory(long inode, long mtimeMillis, int uid, int gid) {
    return new Attributes(inode, 0, S_IFDIR | 0755, mtimeMillis, uid, gid);
  }

  /** A regular file with the permission bits of {@code mode}. */
  public static Attributes file(
      long inode, long size, int mode, long mtimeMillis, int uid, int gid) {
    return new Attributes(inode, size, S_IFREG | (mode & 07777), mtimeMillis, uid, gid);
  }

  public boolean isDirectory() {
    return (mode & S_IFMT) == S_IFDIR;
  }

  /** The type as a directory listing gives it ({@code d_type}: DT_DIR 4, DT_REG 8). */
  int direntType() {
    return (mode & S_IFMT) >>> 12;
  }
}
