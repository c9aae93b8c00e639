package io.hpf.store;

import java.io.Closeable;
import java.io.IOException;

/**
 * A new file written from start to end. Not thread-safe: one writer thread owns it. Bytes may be
 * buffered until {@link #flush()}; {@link #sync()} makes them durable.
 */
public interface AppendableFile extends Closeable {

  void write(byte[] buffer, int offset, int length) throws IOException;

  default void write(byte[] buffer) throws IOException {
    write(buffer, 0, buffer.length);
  }

  /**
   * The block size of the underlying file system for this file (an HDFS block), or 0 if it has no
   * blocks worth aligning to. Writers keep small entries from straddling a block boundary.
   */
  default long blockSize() {
    return 0;
  }

  /** Bytes written so far, which is also the offset of the next byte. */
  long position();

  /** Hands buffered bytes to the file system, so that other readers can see them. */
  void flush() throws IOException;

  /** Flushes and makes everything written so far durable on the storage device. */
  void sync() throws IOException;

  /**
   * Whether, once {@link #sync()} returns, a reader that opens the file (while it is still being
   * written) reads every byte synced, and a listing gives at least that length: true on local disk
   * and HDFS, false where a file appears only when it is closed (object stores).
   */
  default boolean readableWhileOpen() {
    return false;
  }
}
