package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files being read in more than one request, by node: small content read whole on the first
 * request and kept for the next ones (within {@code --memory}), large content streamed, a read at
 * the stream's position continuing it and one elsewhere reopening it there (chunked content decodes
 * from the chunk holding it). A file read in one request — most small files: the kernel asks for
 * the whole of it — is never kept. The least recently read files are let go past {@link #KEPT}.
 */
final class FileContents {
  /** Files kept at most. */
  private static final int KEPT = 256;

  private final MemoryBudget budget;
  private final Map<Long, FileContent> files =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, FileContent> eldest) {
          if (size() <= KEPT) {
            return false;
          }
          eldest.getValue().close();
          return true;
        }
      };

  FileContents(MemoryBudget budget) {
    this.budget = budget;
  }

  /**
   * Puts {@code length} bytes of {@code row} (which {@code reader} reads) from {@code offset} into
   * {@code into}; the caller has checked they exist. {@code node} names the file between calls.
   */
  void read(
      long node, ArchiveReader reader, EntryInfo row, long offset, int length, ByteBuffer into)
      throws IOException {
    if (offset == 0 && length == row.rawLength() && row.isReadWhole()) {
      into.put(reader.get(row));
      return;
    }
    FileContent file;
    synchronized (this) {
      file = files.computeIfAbsent(node, n -> new FileContent(reader, row, budget));
    }
    file.read(offset, length, into);
  }

  /** Lets go of what is kept of {@code node}, which the kernel forgot. */
  void forget(long node) {
    FileContent file;
    synchronized (this) {
      file = files.remove(node);
    }
    if (file != null) {
      file.close();
    }
  }

  /** One file being read: its whole content, or a stream and where it is. */
  private static final class FileContent {
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);

    private final ArchiveReader reader;
    private final EntryInfo row;
    private final MemoryBudget budget;
    private byte[] whole;
    private InputStream stream;
    private long streamPosition;
    private boolean closed;

    FileContent(ArchiveReader reader, EntryInfo row, MemoryBudget budget) {
      this.reader = reader;
      this.row = row;
      this.budget = budget;
    }

    synchronized void read(long offset, int length, ByteBuffer into) throws IOException {
      if (closed) { // let go of meanwhile: read without keeping anything
        try (InputStream once = reader.openStream(row, offset)) {
          copy(once, offset, length, into);
        }
        return;
      }
      if (whole == null && row.isReadWhole() && budget.take(row.rawLength())) {
        try {
          whole = reader.get(row);
        } finally {
          if (whole == null) { // failed: the budget is given back, the next read tries again
            budget.give(row.rawLength());
          }
        }
      }
      if (whole != null) {
        into.put(whole, (int) offset, length);
        return;
      }
      if (stream == null || streamPosition != offset) {
        closeStream();
        stream = reader.openStream(row, offset);
        streamPosition = offset;
      }
      try {
        copy(stream, offset, length, into);
      } catch (IOException | RuntimeException e) {
        // Where a failed stream stands is unknown (a chunk may be consumed before the next one
        // failed): it is let go, and the next read opens one at the offset it asks for.
        closeStream();
        throw e;
      }
      streamPosition += length;
    }

    /**
     * Copies {@code length} bytes of {@code from}, which stands at {@code offset}, into {@code
     * into}.
     */
    private void copy(InputStream from, long offset, int length, ByteBuffer into)
        throws IOException {
      byte[] scratch = SCRATCH.get();
      if (scratch.length < length) {
        scratch = new byte[length];
        SCRATCH.set(scratch);
      }
      int n = from.readNBytes(scratch, 0, length);
      if (n < length) {
        throw new IOException("content ends at " + (offset + n) + " of " + row.rawLength());
      }
      if (offset + n == row.rawLength() && from.read() >= 0) {
        // Reading on at the end is what checks the entry's CRC32C of all its content (a stream read
        // from its start): the last bytes are handed out only once it holds.
        throw new IOException("content goes on past its " + row.rawLength() + " bytes");
      }
      into.put(scratch, 0, n);
    }

    private void closeStream() {
      if (stream != null) {
        try {
          stream.close();
        } catch (IOException ignored) {
          // a read-only stream: nothing was lost
        }
        stream = null;
      }
    }

    /** Lets go of the content and the stream; a later read keeps nothing. */
    synchronized void close() {
      closed = true;
      closeStream();
      if (whole != null) {
        budget.give(whole.length);
        whole = null;
      }
    }
  }
}
