package io.hpf.mount.fuse;

import java.nio.ByteBuffer;

/**
 * The requests that change a {@link WritableFileSystem}: their arguments read and their replies
 * written as {@code linux/fuse.h} lays them out (version 7.31).
 */
final class ChangeRequests {
  private ChangeRequests() {}

  // setattr's "valid" bits.
  private static final int FATTR_MODE = 1;
  private static final int FATTR_SIZE = 1 << 3;
  private static final int FATTR_MTIME = 1 << 5;
  private static final int FATTR_FH = 1 << 6;
  private static final int FATTR_MTIME_NOW = 1 << 8;

  private static final int RENAME_NOREPLACE = 1;
  private static final int S_IFMT = 0170000;

  /**
   * Answers a change request into {@code out}; returns false if {@code opcode} is not one. {@code
   * in} stands after the request's header.
   */
  static boolean answer(
      WritableFileSystem fs, int opcode, long node, ByteBuffer in, ByteBuffer out, long valid)
      throws FuseError {
    int args = in.position();
    switch (opcode) {
      case Wire.OPEN -> putOpen(out, fs.open(node, in.getInt(args)));
      case Wire.CREATE -> {
        int flags = in.getInt(args);
        int mode = in.getInt(args + 4);
        in.position(args + 16);
        WritableFileSystem.Created c = fs.create(node, FuseSession.name(in), flags, mode);
        Wire.putEntry(out, c.entry(), valid);
        putOpen(out, c.handle());
      }
      case Wire.MKNOD -> {
        int mode = in.getInt(args);
        if ((mode & S_IFMT) != Attributes.S_IFREG) {
          throw new FuseError(FuseError.EPERM); // devices, pipes, sockets: no entry can be one
        }
        in.position(args + 16);
        WritableFileSystem.Created c = fs.create(node, FuseSession.name(in), 01, mode);
        fs.release(c.entry().node(), c.handle());
        Wire.putEntry(out, c.entry(), valid);
      }
      case Wire.READ ->
          FuseSession.checkedRead(
              in, (offset, size) -> fs.read(node, in.getLong(args), offset, size, out));
      case Wire.WRITE -> {
        long handle = in.getLong(args);
        long offset = in.getLong(args + 8);
        int size = in.getInt(args + 16);
        ByteBuffer data = in.duplicate().position(args + 40);
        if (offset < 0 || size < 0 || size > data.remaining()) {
          throw new FuseError(FuseError.EINVAL);
        }
        data.limit(data.position() + size);
        out.putInt(fs.write(node, handle, offset, data)).putInt(0);
      }
        // No flush: a close(2) then costs no request (a write that cannot be staged fails itself).
      case Wire.FLUSH -> throw new FuseError(FuseError.ENOSYS);
      case Wire.RELEASE -> fs.release(node, in.getLong(args));
      case Wire.FSYNC, Wire.FSYNCDIR -> fs.fsync(node);
      case Wire.MKDIR -> {
        int mode = in.getInt(args);
        in.position(args + 8);
        Wire.putEntry(out, fs.makeDirectory(node, FuseSession.name(in), mode), valid);
      }
      case Wire.UNLINK -> fs.unlink(node, FuseSession.name(in));
      case Wire.RMDIR -> fs.removeDirectory(node, FuseSession.name(in));
      case Wire.RENAME, Wire.RENAME2 -> rename(fs, opcode, node, in);
      case Wire.SETATTR -> setAttributes(fs, node, in, out, valid);
      case Wire.LINK, Wire.SYMLINK ->
          throw new FuseError(FuseError.EPERM); // names hold content only
      case Wire.SETXATTR, Wire.REMOVEXATTR -> throw new FuseError(FuseError.ENOTSUP);
      default -> {
        return false;
      }
    }
    return true;
  }

  /** {@code struct fuse_open_out}: the handle; the kernel keeps no page across opens. */
  private static void putOpen(ByteBuffer out, long handle) {
    out.putLong(handle).putInt(0).putInt(0);
  }

  private static void rename(WritableFileSystem fs, int opcode, long node, ByteBuffer in)
      throws FuseError {
    int args = in.position();
    long newParent = in.getLong(args);
    int flags = opcode == Wire.RENAME2 ? in.getInt(args + 8) : 0;
    if ((flags & ~RENAME_NOREPLACE) != 0) {
      throw new FuseError(FuseError.EINVAL); // an exchange or a whiteout: not for archives
    }
    in.position(args + (opcode == Wire.RENAME2 ? 16 : 8));
    String name = FuseSession.name(in);
    String newName = FuseSession.name(in);
    fs.rename(node, name, newParent, newName, flags != 0);
  }

  /** {@code struct fuse_setattr_in} to a change; replies {@code struct fuse_attr_out}. */
  private static void setAttributes(
      WritableFileSystem fs, long node, ByteBuffer in, ByteBuffer out, long valid)
      throws FuseError {
    int args = in.position();
    int asked = in.getInt(args);
    long handle = (asked & FATTR_FH) != 0 ? in.getLong(args + 8) : 0;
    long size = (asked & FATTR_SIZE) != 0 ? in.getLong(args + 16) : -1;
    int mode = (asked & FATTR_MODE) != 0 ? in.getInt(args + 68) & 07777 : -1;
    long mtime = -1;
    if ((asked & FATTR_MTIME_NOW) != 0) {
      mtime = System.currentTimeMillis();
    } else if ((asked & FATTR_MTIME) != 0) {
      mtime = in.getLong(args + 40) * 1000 + in.getInt(args + 60) / 1_000_000;
    }
    if ((asked & FATTR_SIZE) != 0 && size < 0) {
      throw new FuseError(FuseError.EINVAL);
    }
    // Owners, access and change times: not recorded (the mount shows one owner); accepted.
    Attributes a =
        fs.setAttributes(node, handle, new WritableFileSystem.AttributeChange(size, mode, mtime));
    out.putLong(valid).putInt(0).putInt(0);
    Wire.putAttributes(out, a);
  }
}
