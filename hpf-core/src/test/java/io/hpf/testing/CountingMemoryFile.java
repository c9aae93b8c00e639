package io.hpf.testing;

import io.hpf.store.ReadableFile;
import java.io.EOFException;

/** A {@link ReadableFile} over bytes in memory that counts the reads reaching it. */
public final class CountingMemoryFile implements ReadableFile {
  private final byte[] bytes;
  private int reads;

  public CountingMemoryFile(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Reads served so far. */
  public int reads() {
    return reads;
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws EOFException {
    if (position < 0 || position + length > bytes.length) {
      throw new EOFException("memory file: " + length + " bytes at offset " + position);
    }
    reads++;
    System.arraycopy(bytes, (int) position, buffer, offset, length);
  }

  @Override
  public void close() {}
}
