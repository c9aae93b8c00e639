package io.hpf.store;

import java.io.IOException;

/**
 * A file read at places known in advance: the caller loads a range with one read, reads inside it
 * are served from memory and reads elsewhere go to the file. A batch of lookups reads each run of
 * neighbouring entries this way, with one read instead of one per entry. For one thread; closing it
 * leaves the file open (it is shared).
 */
public final class PrefetchedFile implements ReadableFile {
  private final ReadableFile file;
  private final long length;
  private byte[] buffer = new byte[0];
  private long start;
  private int loaded;

  public PrefetchedFile(ReadableFile file) throws IOException {
    this.file = file;
    this.length = file.length();
  }

  /**
   * Reads the range {@code [position, position + count)} with one read, as far as the file goes (a
   * read past its end is then the file's to report), in place of the range loaded before.
   */
  public void load(long position, int count) throws IOException {
    int n = (int) Math.max(0, Math.min(count, length - position));
    if (position < 0 || n == 0) {
      loaded = 0;
      return;
    }
    if (buffer.length < n) {
      buffer = new byte[Math.max(n, Math.min(2 * buffer.length, Integer.MAX_VALUE - 8))];
    }
    loaded = 0; // a failed read leaves nothing loaded
    file.readFully(position, buffer, 0, n);
    start = position;
    loaded = n;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void readFully(long position, byte[] into, int offset, int count) throws IOException {
    if (position >= start && count <= loaded && position - start <= loaded - count) {
      System.arraycopy(buffer, (int) (position - start), into, offset, count);
    } else {
      file.readFully(position, into, offset, count);
    }
  }

  /** Reads of a loaded range are; an entry reader then reads a raw entry's content apart. */
  @Override
  public boolean servesFromMemory() {
    return true;
  }

  @Override
  public int coalesceBytes() {
    return file.coalesceBytes();
  }

  @Override
  public void close() {
    // the file is shared: its owner closes it
  }
}
