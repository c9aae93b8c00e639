package io.hpf.internal.format;

import io.hpf.store.ReadableFile;
import java.io.IOException;

/**
 * A byte range of a file as a stream of positional reads, straight into the caller's buffer; never
 * through a memory mapping, so memory stays bounded however long the range.
 */
final class RangeInputStream extends BulkInputStream {
  private final ReadableFile file;
  private final long end;
  private long position;

  RangeInputStream(ReadableFile file, long start, long length) {
    this.file = file;
    this.position = start;
    this.end = start + length;
  }

  @Override
  public int read(byte[] buffer, int offset, int count) throws IOException {
    if (count == 0) {
      return 0;
    }
    if (position >= end) {
      return -1;
    }
    int n = (int) Math.min(count, end - position);
    file.streamFully(position, buffer, offset, n);
    position += n;
    return n;
  }

  @Override
  public long skip(long n) {
    long skipped = Math.max(0, Math.min(n, end - position));
    position += skipped;
    return skipped;
  }
}
