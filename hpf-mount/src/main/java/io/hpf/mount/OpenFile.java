package io.hpf.mount;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.EntryInfo;
import java.io.IOException;
import java.io.InputStream;

/**
 * A file a program has open: the entry's row in the snapshot it was opened in (held until it is
 * closed, so its bytes never change under it). Small content is read whole on the first read and
 * kept while the file is open; large content is streamed, a read at the stream's position
 * continuing it and one elsewhere reopening it at that offset (chunked content decodes from the
 * chunk holding it). Reads of one file are serialized; files are independent.
 */
final class OpenFile {
  private final String archiveName;
  private final ArchiveSnapshot snapshot;
  private final EntryInfo row;
  private final MemoryBudget budget;
  private byte[] whole;
  private InputStream stream;
  private long streamPosition;

  OpenFile(String archiveName, ArchiveSnapshot snapshot, EntryInfo row, MemoryBudget budget) {
    this.archiveName = archiveName;
    this.snapshot = snapshot;
    this.row = row;
    this.budget = budget;
  }

  EntryInfo row() {
    return row;
  }

  /** What messages call the archive the file is in. */
  String archiveName() {
    return archiveName;
  }

  /**
   * Copies up to {@code length} bytes from {@code offset} into {@code into}; returns how many (0 at
   * the end). Every byte has passed its checksum.
   */
  synchronized int read(long offset, byte[] into, int length) throws IOException {
    if (offset >= row.rawLength()) {
      return 0;
    }
    int n = (int) Math.min(length, row.rawLength() - offset);
    if (whole == null && row.readWhole() && budget.take(row.rawLength())) {
      whole = snapshot.reader().get(row);
    }
    if (whole != null) {
      System.arraycopy(whole, (int) offset, into, 0, n);
      return n;
    }
    if (stream == null || streamPosition != offset) {
      closeStream();
      stream = snapshot.reader().openStream(row, offset);
      streamPosition = offset;
    }
    int read = stream.readNBytes(into, 0, n);
    streamPosition += read;
    return read;
  }

  private void closeStream() throws IOException {
    if (stream != null) {
      InputStream s = stream;
      stream = null;
      s.close();
    }
  }

  /** Lets go of the content, the stream and the snapshot. */
  synchronized void close() throws IOException {
    try {
      closeStream();
    } finally {
      if (whole != null) {
        budget.give(whole.length);
        whole = null;
      }
      snapshot.release();
    }
  }
}
