package io.hpf.internal.io;

import io.hpf.store.ReadableFile;
import java.io.IOException;

/**
 * Serves reads that move forward through a file from one large buffer, refilled with one read of
 * {@link #WINDOW_BYTES} at a time: a scan in part order then costs one read (one DataNode round
 * trip on HDFS) per window instead of one per entry. Reads larger than the window go straight to
 * the file. Not thread-safe; does not close the file it wraps.
 */
public final class ReadAheadFile implements ReadableFile {
  public static final int WINDOW_BYTES = 8 << 20;

  private final ReadableFile file;
  private final long length;
  private final byte[] window;
  private long windowStart;
  private int windowLength;

  public ReadAheadFile(ReadableFile file) throws IOException {
    this.file = file;
    this.length = file.length();
    this.window = new byte[(int) Math.min(WINDOW_BYTES, Math.max(length, 1))];
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int count) throws IOException {
    if (count > window.length || position < 0 || position + count > length) {
      file.streamFully(position, buffer, offset, count); // large, or an error the file names
      return;
    }
    if (position < windowStart || position + count > windowStart + windowLength) {
      windowStart = position;
      windowLength = (int) Math.min(window.length, length - position);
      // A sequential pass: read, not mapped, so the pages it passes are not kept in the process.
      file.streamFully(windowStart, window, 0, windowLength);
    }
    System.arraycopy(window, (int) (position - windowStart), buffer, offset, count);
  }

  @Override
  public boolean servesFromMemory() {
    return true;
  }

  @Override
  public void close() {}
}
