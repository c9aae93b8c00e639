package io.hpf.internal.write;

import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.SegmentFileWriter;
import io.hpf.internal.index.IndexInputs;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.index.SegmentIndexWriter;
import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

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

  private final FutureTask<Built> task;

  private record Built(byte[] bytes, int length, SegmentDirectory directory) {}

  private IndexAhead(FutureTask<Built> task) {
    this.task = task;
  }

  /** Starts building the index of {@code rows} (which stay open until {@link #finish}). */
  static IndexAhead start(SortedRows rows, int bucketCapacity) {
    FutureTask<Built> task = new FutureTask<>(() -> build(rows, bucketCapacity));
    Thread thread = new Thread(task, "hpf-index");
    thread.setDaemon(true);
    thread.start();
    return new IndexAhead(task);
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
    Built built = await();
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
    while (true) {
      try {
        task.get();
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (ExecutionException e) {
        return; // the catalog's failure is the one to tell
      }
    }
  }

  private Built await() throws IOException {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while building an index");
    } catch (ExecutionException e) {
      throw PlanCheck.asThrown(e.getCause());
    }
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
