package io.hpf.internal.sort;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Sorts records (byte arrays) by a comparator within a bounded memory: records wait in memory until
 * they take {@code memoryBytes}, then go sorted to a run on local disk (a {@link RecordFile});
 * {@link #sorted} merges the runs and what is left in memory. Records that compare equal come out
 * in the order added. Not thread-safe.
 */
public final class RecordSorter implements Closeable {
  /**
   * Memory a sorter of a write or a check takes before it writes a run: 64 MiB, or a sixteenth of
   * the heap if less.
   */
  public static final long DEFAULT_MEMORY_BYTES =
      Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16);

  /** Bytes a record in memory costs besides its own: the array's header and a reference. */
  private static final int RECORD_OVERHEAD_BYTES = 24;

  private final Comparator<byte[]> order;
  private final long memoryBytes;
  private final Path tempRoot;
  private List<byte[]> records = new ArrayList<>();
  private long bytesHeld;
  private ScratchDirectory directory; // made by the first run
  private final List<Path> runs = new ArrayList<>();
  private final List<RecordFile.Reader> open = new ArrayList<>();

  /** A sorter whose runs go in a new directory under {@code java.io.tmpdir}. */
  public RecordSorter(Comparator<byte[]> order, long memoryBytes) {
    this(order, memoryBytes, Path.of(System.getProperty("java.io.tmpdir")));
  }

  RecordSorter(Comparator<byte[]> order, long memoryBytes, Path tempRoot) {
    this.order = order;
    this.memoryBytes = memoryBytes;
    this.tempRoot = tempRoot;
  }

  /** Adds a record. */
  public void add(byte[] record) throws IOException {
    records.add(record);
    bytesHeld += record.length + RECORD_OVERHEAD_BYTES;
    if (bytesHeld >= memoryBytes) {
      writeRun();
    }
  }

  /** Runs written so far. */
  int runCount() {
    return runs.size();
  }

  private void writeRun() throws IOException {
    if (directory == null) {
      directory = ScratchDirectory.create(tempRoot, "records");
    }
    records.sort(order);
    Path run = directory.resolve("run-" + runs.size());
    try (RecordFile.Writer out = new RecordFile.Writer(run)) {
      for (byte[] record : records) {
        out.add(record, 0, record.length);
      }
    }
    runs.add(run);
    records = new ArrayList<>();
    bytesHeld = 0;
  }

  /** Records read one at a time: {@link Cursor#next} is null after the last. */
  public interface Cursor extends Merge.Source<byte[]> {}

  /** Every record added, in order; once. Closing the sorter closes the runs. */
  public Cursor sorted() throws IOException {
    records.sort(order);
    List<Cursor> sources = new ArrayList<>();
    for (Path run : runs) {
      RecordFile.Reader in = new RecordFile.Reader(run);
      open.add(in);
      sources.add(in::next);
    }
    List<byte[]> inMemory = records;
    records = null;
    sources.add(
        new Cursor() {
          private int next;

          @Override
          public byte[] next() {
            return next < inMemory.size() ? inMemory.get(next++) : null;
          }
        });
    if (sources.size() == 1) {
      return sources.get(0);
    }
    Merge<byte[]> merged = new Merge<>(sources, order);
    return merged::next;
  }

  /** Deletes the runs. */
  @Override
  public void close() throws IOException {
    for (RecordFile.Reader in : open) {
      in.close();
    }
    if (directory != null) {
      directory.close(); // and the runs in it
    }
  }

  /** Compares records by their first {@code length} bytes, unsigned. */
  public static Comparator<byte[]> byPrefix(int length) {
    return (a, b) -> Arrays.compareUnsigned(a, 0, length, b, 0, length);
  }
}
