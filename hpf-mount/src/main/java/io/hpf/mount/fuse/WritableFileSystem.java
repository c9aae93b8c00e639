package io.hpf.mount.fuse;

import java.nio.ByteBuffer;

/**
 * What a file system that takes changes answers besides reads. Files are opened and closed through
 * handles ({@link #open}, {@link #create}, {@link #release}), and reads and writes name the handle,
 * so a file open while its name is replaced, renamed or deleted keeps the file it opened. Unlike a
 * read-only one, a node here is a name the kernel knows, whose content and attributes change as the
 * kernel changes them: the kernel sees every change, since every change comes through it.
 */
public interface WritableFileSystem extends ReadOnlyFileSystem {
  /** Opens file {@code node} with the {@code open(2)} {@code flags}; returns the handle. */
  long open(long node, int flags) throws FuseError;

  /** Creates and opens file {@code name} in {@code parent}, as {@code open(O_CREAT)} does. */
  Created create(long parent, String name, int flags, int mode) throws FuseError;

  /** As {@link ReadOnlyFileSystem#read}, through the handle {@link #open} gave. */
  int read(long node, long handle, long offset, int size, ByteBuffer into) throws FuseError;

  /** Writes what remains of {@code data} at {@code offset}; returns how much (all of it). */
  int write(long node, long handle, long offset, ByteBuffer data) throws FuseError;

  /** The handle's last descriptor is gone. */
  void release(long node, long handle);

  /** {@code fsync(2)} of a file or directory: returns once what it asks is durable. */
  void fsync(long node) throws FuseError;

  Entry makeDirectory(long parent, String name, int mode) throws FuseError;

  void unlink(long parent, String name) throws FuseError;

  void removeDirectory(long parent, String name) throws FuseError;

  /** {@code rename(2)}; {@code noReplace}: fail with EEXIST rather than replace. */
  void rename(long parent, String name, long newParent, String newName, boolean noReplace)
      throws FuseError;

  /** Changes what {@code change} names (through {@code handle} if not 0); returns the result. */
  Attributes setAttributes(long node, long handle, AttributeChange change) throws FuseError;

  /** A created file: its node, and the handle it is open through. */
  record Created(Entry entry, long handle) {}

  /**
   * What a {@code setattr} changes: the size ({@code truncate}), the permission bits ({@code
   * chmod}), the modification time ({@code utimens}); each -1 if not asked (a time of -1 ms is
   * never asked for: before 1970 by a millisecond).
   */
  record AttributeChange(long size, int mode, long mtimeMillis) {
    public boolean content() {
      return size >= 0;
    }
  }
}
