package io.hpf.internal.write;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.sort.Merge;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The rows of a new segment in name order (UTF-8 bytes, unsigned), which a commit reads twice: once
 * to plan it, once to write the segment. Rows that came from different sources may share a name
 * (the plan refuses that); closing lets go of what holds them (a writer's sorted runs on disk).
 */
public interface SortedRows extends Closeable {
  /** How many rows. */
  long size();

  /** Bytes the rows' entries take in part files ({@link io.hpf.archive.model.EntryInfo}). */
  long accountedBytes();

  /** Reads the rows from the first. */
  Cursor open() throws IOException;

  /** Rows read one at a time. */
  interface Cursor extends Closeable, Merge.Source<SegmentBuilder.Row> {
    /** The next row, or null after the last. */
    @Override
    SegmentBuilder.Row next() throws IOException;

    @Override
    void close() throws IOException;

    /**
     * The rows of a listing in name order (its I/O errors, unchecked there, thrown as they are);
     * closing runs {@code close}.
     */
    static Cursor of(Iterator<EntryInfo> rows, Runnable close) {
      return new Cursor() {
        @Override
        public SegmentBuilder.Row next() throws IOException {
          try {
            return rows.hasNext() ? SegmentBuilder.Row.of(rows.next()) : null;
          } catch (UncheckedIOException e) {
            throw e.getCause();
          }
        }

        @Override
        public void close() {
          close.run();
        }
      };
    }
  }

  @Override
  void close() throws IOException;

  /** Rows held in a list. REQUIRES: sorted by name ({@link SegmentBuilder#sortByName}). */
  static SortedRows of(List<SegmentBuilder.Row> sorted) {
    long bytes = 0;
    for (SegmentBuilder.Row row : sorted) {
      bytes += row.info().accountedBytes();
    }
    long accounted = bytes;
    return new SortedRows() {
      @Override
      public long size() {
        return sorted.size();
      }

      @Override
      public long accountedBytes() {
        return accounted;
      }

      @Override
      public Cursor open() {
        return new Cursor() {
          private int next;

          @Override
          public SegmentBuilder.Row next() {
            return next < sorted.size() ? sorted.get(next++) : null;
          }

          @Override
          public void close() {}
        };
      }

      @Override
      public void close() {}
    };
  }

  /**
   * The rows of every source in one name order; of rows with one name, those of the earlier source
   * first. Closing closes the sources.
   */
  static SortedRows merge(List<? extends SortedRows> sources) {
    if (sources.size() == 1) {
      return sources.get(0);
    }
    return new SortedRows() {
      @Override
      public long size() {
        return sources.stream().mapToLong(SortedRows::size).sum();
      }

      @Override
      public long accountedBytes() {
        return sources.stream().mapToLong(SortedRows::accountedBytes).sum();
      }

      @Override
      public Cursor open() throws IOException {
        List<Cursor> cursors = new ArrayList<>();
        try {
          for (SortedRows source : sources) {
            cursors.add(source.open());
          }
          return new MergedCursor(cursors);
        } catch (IOException | RuntimeException e) {
          for (Cursor c : cursors) {
            c.close();
          }
          throw e;
        }
      }

      @Override
      public void close() throws IOException {
        for (SortedRows source : sources) {
          source.close();
        }
      }
    };
  }

  /** A k-way merge by name ({@link Merge}); ties go to the cursor listed first. */
  final class MergedCursor implements Cursor {
    private final List<Cursor> cursors;
    private final Merge<SegmentBuilder.Row> merge;

    MergedCursor(List<Cursor> cursors) throws IOException {
      this.cursors = cursors;
      this.merge = new Merge<>(cursors, SegmentBuilder.BY_NAME);
    }

    @Override
    public SegmentBuilder.Row next() throws IOException {
      return merge.next();
    }

    @Override
    public void close() throws IOException {
      IOException first = null;
      for (Cursor c : cursors) {
        try {
          c.close();
        } catch (IOException e) {
          first = first == null ? e : first;
        }
      }
      if (first != null) {
        throw first;
      }
    }
  }
}
