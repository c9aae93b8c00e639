package io.hpf.internal.write;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.catalog.CatalogRow;
import io.hpf.internal.catalog.CatalogWriter;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.sort.RecordSorter;
import io.hpf.internal.sort.ScratchDirectory;
import io.hpf.store.AppendableFile;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sorts the rows of a commit by name within a bounded memory, however many there are: rows wait
 * encoded as catalog rows (about a fifth of their objects' size) until they fill the memory given,
 * then go sorted to a run on local disk, a catalog file of its own (compressed, checksummed, read
 * back by the catalog's reader); the sorted rows are the runs and the rows in memory merged. An
 * external merge sort, as HFile writers are fed by a sort. Not thread-safe.
 */
public final class RowSorter {
  /** Bytes a row in memory costs besides its encoding: the array's header and a reference. */
  private static final int ROW_OVERHEAD_BYTES = 24;

  private final long memoryBytes;
  private final Path tempRoot;
  private byte[][] rows = new byte[256][];
  private int count;
  private long bytesHeld;
  private long size;
  private long accountedBytes;
  private ScratchDirectory scratch; // made by the first run
  private LocalStorage spill; // its files
  private IOException failed; // a run that could not be written: its rows are not all kept
  private final List<Run> runs = new ArrayList<>();

  private record Run(String fileName, long length, long rows) {}

  /** A sorter of {@link RecordSorter#DEFAULT_MEMORY_BYTES}. */
  public RowSorter() {
    this(RecordSorter.DEFAULT_MEMORY_BYTES);
  }

  /** A sorter that spills a run whenever its rows in memory take {@code memoryBytes}. */
  public RowSorter(long memoryBytes) {
    this(memoryBytes, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /** As {@link #RowSorter(long)}, its runs in a new directory under {@code tempRoot}. */
  RowSorter(long memoryBytes, Path tempRoot) {
    this.memoryBytes = memoryBytes;
    this.tempRoot = tempRoot;
  }

  /**
   * Adds a row, in any order.
   *
   * @throws IOException a run cannot be written (or could not be earlier)
   */
  public void add(EntryInfo row) throws IOException {
    checkNotFailed();
    byte[] encoded = CatalogRow.encode(EntryNames.utf8(row.name()), row);
    if (count == rows.length) {
      rows = Arrays.copyOf(rows, count * 2);
    }
    rows[count++] = encoded;
    bytesHeld += encoded.length + ROW_OVERHEAD_BYTES;
    size++;
    accountedBytes += row.accountedBytes();
    if (bytesHeld >= memoryBytes) {
      spillRun();
    }
  }

  /** Rows added. */
  public long size() {
    return size;
  }

  /**
   * Writes the rows in memory to a run if there are runs already: a large commit's finished part
   * then holds no memory while the next parts are written (a small one keeps its few rows).
   */
  public void release() throws IOException {
    if (!runs.isEmpty() && count > 0) {
      spillRun();
    }
  }

  /** Runs written to disk so far. */
  int runCount() {
    return runs.size();
  }

  /** Where the runs are, or null before the first. */
  Path runDirectory() {
    return spill == null ? null : spill.directory();
  }

  private void checkNotFailed() throws IOException {
    if (failed != null) {
      throw new IOException("the rows of a commit could not be sorted: " + failed.getMessage());
    }
  }

  /** Writes the rows in memory to a run; once one could not be written, no more are taken. */
  private void spillRun() throws IOException {
    try {
      writeRun();
    } catch (IOException e) {
      failed = e;
      throw e;
    }
  }

  private void writeRun() throws IOException {
    if (spill == null) {
      scratch = ScratchDirectory.create(tempRoot, "sort");
      spill = LocalStorage.open(scratch.path());
    }
    sortInMemory();
    String name = "run-" + runs.size();
    long length;
    try (AppendableFile file = spill.create(name, FileUse.ONCE)) {
      CatalogWriter run = new CatalogWriter(file);
      for (int i = 0; i < count; i++) {
        run.addEncoded(rows[i]);
      }
      length = run.finish();
    }
    runs.add(new Run(name, length, count));
    rows = new byte[256][];
    count = 0;
    bytesHeld = 0;
  }

  private void sortInMemory() {
    Arrays.sort(rows, 0, count, CatalogRow::compareNames);
  }

  /**
   * The rows sorted: the runs on disk and the rows in memory merged (rows of one name in the order
   * added). Adding rows after this is an error; closing the result deletes the runs.
   *
   * @throws IOException a run could not be written earlier (the rows are not all here)
   */
  public SortedRows finish() throws IOException {
    checkNotFailed();
    sortInMemory();
    List<SortedRows> sources = new ArrayList<>();
    for (Run run : runs) {
      sources.add(runRows(run));
    }
    sources.add(memoryRows(rows, count));
    rows = null;
    SortedRows merged = SortedRows.merge(sources);
    ScratchDirectory dir = scratch;
    long total = size;
    long bytes = accountedBytes;
    return new SortedRows() {
      @Override
      public long size() {
        return total;
      }

      @Override
      public long accountedBytes() {
        return bytes;
      }

      @Override
      public Cursor open() throws IOException {
        return merged.open();
      }

      @Override
      public void close() throws IOException {
        if (dir != null) {
          dir.close(); // and the runs in it
        }
      }
    };
  }

  /**
   * Lets go of the rows without sorting them (a write given up): deletes any runs, or leaves them
   * in the temporary directory if they cannot be deleted.
   */
  public void discard() {
    rows = null;
    try {
      if (scratch != null) {
        scratch.close();
      }
    } catch (IOException e) {
      // Only space is lost; the write is being given up for another reason already.
    }
  }

  private static SortedRows memoryRows(byte[][] sorted, int count) {
    return new Source(count) {
      @Override
      public Cursor open() {
        return new Cursor() {
          private int next;

          @Override
          public SegmentBuilder.Row next() throws IOException {
            if (next == count) {
              return null;
            }
            byte[] row = sorted[next++];
            return new SegmentBuilder.Row(CatalogRow.name(row), CatalogRow.decode(row));
          }

          @Override
          public void close() {}
        };
      }
    };
  }

  private SortedRows runRows(Run run) {
    LocalStorage dir = spill;
    return new Source(run.rows) {
      @Override
      public Cursor open() throws IOException {
        CatalogReader reader =
            CatalogReader.open(
                dir.describe(run.fileName),
                dir.openRead(run.fileName, FileUse.ONCE),
                run.length,
                run.rows);
        return Cursor.of(reader.list(""), reader::closeQuietly);
      }
    };
  }

  /** A source merged by {@link #finish}: its size only is asked; the sum is the sorter's. */
  private abstract static class Source implements SortedRows {
    private final long rows;

    Source(long rows) {
      this.rows = rows;
    }

    @Override
    public long size() {
      return rows;
    }

    @Override
    public long accountedBytes() {
      throw new UnsupportedOperationException("asked of the sorted rows as a whole");
    }

    @Override
    public void close() {}
  }
}
