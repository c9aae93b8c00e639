package io.hpf.mount.fuse;

/**
 * An error number a request is answered with (Linux's errno values). Not a failure of the mount: no
 * stack trace is taken.
 */
public final class FuseError extends Exception {
  private static final long serialVersionUID = 1L;

  public static final int EPERM = 1;
  public static final int ENOENT = 2;
  public static final int EINTR = 4;
  public static final int EIO = 5;
  public static final int EBADF = 9;
  public static final int EEXIST = 17;
  public static final int ENOTDIR = 20;
  public static final int EISDIR = 21;
  public static final int EINVAL = 22;
  public static final int EFBIG = 27;
  public static final int ENOSPC = 28;
  public static final int EROFS = 30;
  public static final int ENOSYS = 38;
  public static final int ENOTEMPTY = 39;
  public static final int ENOTSUP = 95;

  private final int errno;

  public FuseError(int errno) {
    super("error " + errno, null, false, false);
    this.errno = errno;
  }

  public int errno() {
    return errno;
  }
}
