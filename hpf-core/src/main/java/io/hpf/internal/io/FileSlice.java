package io.hpf.internal.io;

import io.hpf.store.ReadableFile;
import java.io.EOFException;
import java.io.IOException;

/**
 * A range of a file read as a file of its own: position 0 is the range's first byte and its length
 * is the range's. A segment file's catalog, buckets and dictionaries (FORMAT.md "Segment file") are
 * each exactly the file of their kind, so their readers read them through a slice unchanged.
 * Thread-safe as the file under it.
 */
public final class FileSlice implements ReadableFile {
  private final ReadableFile file;
  private final long start;
  private final long length;
  private final boolean owner;

  /**
   * @param owner whether closing the slice closes the file (a slice over a file opened for it
   *     alone), or leaves it to whoever shares it
   */
  public FileSlice(ReadableFile file, long start, long length, boolean owner) {
    if (start < 0 || length < 0) {
      throw new IllegalArgumentException("bad slice [" + start + ", +" + length + ")");
    }
    this.file = file;
    this.start = start;
    this.length = length;
    this.owner = owner;
  }

  /**
   * The slice's length, or less where the file ends first: readers compare it with what they
   * expect, as they do a file's length.
   */
  @Override
  public long length() throws IOException {
    return Math.max(0, Math.min(length, file.length() - start));
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int count) throws IOException {
    if (position < 0 || position > length - count) {
      throw new EOFException(
          "read of " + count + " bytes at " + position + " past the section's " + length);
    }
    file.readFully(start + position, buffer, offset, count);
  }

  @Override
  public void close() throws IOException {
    if (owner) {
      file.close();
    }
  }
}
