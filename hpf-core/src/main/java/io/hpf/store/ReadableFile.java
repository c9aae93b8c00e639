package io.hpf.store;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;

/**
 * A file opened for positional reads. Thread-safe: positional reads do not share a file pointer, so
 * one open file serves every reader thread of an archive.
 */
public interface ReadableFile extends Closeable {

  /** The file's length in bytes, as of when it was opened. */
  long length() throws IOException;

  /**
   * Reads exactly {@code length} bytes at {@code position}.
   *
   * @throws EOFException if the file ends first (the message names the file and offset)
   */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException;

  /**
   * Whether reads are served from memory this file already holds (a read-ahead window), so that two
   * small reads cost no more than one: a reader may then read a part of what it needs apart instead
   * of reading all of it and copying the part out.
   */
  default boolean servesFromMemory() {
    return false;
  }

  /**
   * How many bytes between two wanted places are worth reading (and dropping) to get both in one
   * read: about what one more read call costs, in bytes read. A system call on a local file is
   * worth a few tens of KiB of copying; a round trip to a DataNode, a MiB or more.
   */
  default int coalesceBytes() {
    return 32 << 10;
  }

  /**
   * Reads exactly {@code length} bytes at {@code position} for a stream through a large range (an
   * entry of gigabytes): as {@link #readFully(long, byte[], int, int)}, but never through a memory
   * mapping, so that the process does not come to map every page it streams (a 3 GiB entry would
   * otherwise stay resident as 3 GiB of mapped pages).
   */
  default void streamFully(long position, byte[] buffer, int offset, int length)
      throws IOException {
    readFully(position, buffer, offset, length);
  }

  /** Convenience: reads {@code length} bytes at {@code position} into a new array. */
  default byte[] readFully(long position, int length) throws IOException {
    byte[] buffer = new byte[length];
    readFully(position, buffer, 0, length);
    return buffer;
  }
}
