package io.hpf.internal.write;

import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.SegmentFileWriter;
import io.hpf.internal.index.IndexInputs;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.index.SegmentIndexWriter;
import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.util.Arrays;

/**
 * A segment's index built on a thread of its own while the segment's catalog is written: the index
 * needs every row before its first bucket can be built, the catalog none, and the two passes over
 * the rows (each reading and decoding every row) took about the same time one after the other. The
 * buckets are written into memory, then copied after the catalog, their offsets moved by where they
 * land (a bucket's bytes do not depend on where it lies). For segments of at most {@link #MAX_ROWS}
 * rows, whose index fits in memory; larger ones write their index after the catalog, as before.
 */
final class IndexAhead {
  /** About 35 bytes of index a row: at most ~70 MB held. */
  static final long MAX_ROWS = 2_000_000;

  /** Below this, a thread of its own costs more than the overlap saves (a server's commits). */
  static final long MIN_ROWS = 10_000;

  private final Beside<Built> task;

  private record Built(byte[] bytes, int length, SegmentDirectory directory) {}

  private IndexAhead(Beside<Built> task) {
    this.task = task;
  }

  /**
   * Starts building the index of {@code rows} (which stay open until it is appended or abandoned).
   */
  static IndexAhead start(SortedRows rows, int bucketCapacity) {
    return new IndexAhead(
        Beside.start("hpf-index", "building an index", () -> build(rows, bucketCapacity)));
  }

  private static Built build(SortedRows rows, int bucketCapacity) throws IOException {
    MemoryFile memory = new MemoryFile();
    try (SegmentFileWriter buckets = new SegmentFileWriter(memory);
        IndexInputs index = IndexInputs.forCount(rows.size());
        SortedRows.Cursor cursor = rows.open()) {
      for (SegmentBuilder.Row row = cursor.next(); row != null; row = cursor.next()) {
        SegmentBuilder.addToIndex(index, row);
      }
      SegmentDirectory directory = SegmentIndexWriter.write(buckets, index, bucketCapacity);
      return new Built(memory.bytes, memory.length, directory);
    }
  }

  /** Waits for the index and writes it at {@code out}'s position; returns its directory. */
  SegmentDirectory appendTo(SegmentFileWriter out) throws IOException {
    Built built = task.get();
    // The memory file began with a segment file's header, which the copy leaves out.
    int from = FormatConstants.FILE_HEADER_BYTES;
    long moved = out.position() - from;
    out.write(built.bytes, from, built.length - from);
    return built.directory.movedBy(moved);
  }

  /**
   * Waits, quietly, for an index that will not be written (the catalog failed): its thread must be
   * done with the rows before they are closed.
   */
  void abandon() {
    task.awaitQuietly();
  }

  /** A file in memory: the index's buckets before they are copied into the segment file. */
  private static final class MemoryFile implements AppendableFile {
    private byte[] bytes = new byte[1 << 16];
    private int length;

    @Override
    public void write(byte[] buffer, int offset, int count) {
      if (length + count > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + count, 2 * bytes.length));
      }
      System.arraycopy(buffer, offset, bytes, length, count);
      length += count;
    }

    @Override
    public long position() {
      return length;
    }

    @Override
    public void flush() {}

    @Override
    public void sync() {}

    @Override
    public void close() {}
  }
}
