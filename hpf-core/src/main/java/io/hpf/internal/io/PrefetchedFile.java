package io.hpf.internal.io;

import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.util.Arrays;

/**
 * A file read at places known in advance, each run of neighbouring places with one read: reads
 * inside the loaded run are served from memory, reads elsewhere go to the file. The places are
 * loaded by the caller ({@link #load}), or follow a plan given at construction: a read inside a
 * planned place loads the run of places from that one on, neighbours closer than the file's {@link
 * ReadableFile#coalesceBytes}, at most a given number of bytes. A batch of lookups or a task's pass
 * over scattered entries then costs a read per run instead of one per entry (on HDFS, a DataNode
 * round trip each). For one thread.
 */
public final class PrefetchedFile implements ReadableFile {
  /**
   * Bytes loaded past a planned run's last place: a reader that knows where an entry starts but not
   * its length reads a header's worth from its start (4 KiB), which may pass the entry's end.
   */
  static final int SLACK_BYTES = 4096;

  private final ReadableFile file;
  private final long length;
  private final boolean owner;
  private final long[] starts;
  private final long[] ends;
  private final int maxRunBytes;
  private byte[] buffer = new byte[0];
  private long start;
  private int loaded;

  /** Over a file shared with others: closing this leaves it open. Loaded by {@link #load}. */
  public PrefetchedFile(ReadableFile file) throws IOException {
    this(file, false, new long[0], new long[0], 0);
  }

  /**
   * Over a file read at the planned places {@code [starts[i], ends[i])}, sorted by start.
   *
   * @param owner whether closing this closes the file (opened for this pass alone)
   * @param maxRunBytes the most bytes one read loads; a larger place is read from the file
   */
  public PrefetchedFile(
      ReadableFile file, boolean owner, long[] starts, long[] ends, int maxRunBytes)
      throws IOException {
    if (starts.length != ends.length) {
      throw new IllegalArgumentException(starts.length + " starts, " + ends.length + " ends");
    }
    for (int i = 1; i < starts.length; i++) {
      if (starts[i] < starts[i - 1]) {
        throw new IllegalArgumentException("places not sorted at " + i);
      }
    }
    this.file = file;
    this.length = file.length();
    this.owner = owner;
    this.starts = starts.clone();
    this.ends = ends.clone();
    this.maxRunBytes = maxRunBytes;
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
      buffer = new byte[Math.max(n, (int) Math.min(2L * buffer.length, maxRunBytes))];
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
    if (holds(position, count) || loadPlannedRun(position, count)) {
      System.arraycopy(buffer, (int) (position - start), into, offset, count);
    } else {
      file.readFully(position, into, offset, count);
    }
  }

  private boolean holds(long position, int count) {
    return position >= start && count <= loaded && position - start <= loaded - count;
  }

  /**
   * Loads the run of planned places from the one {@code position} falls in (and {@link
   * #SLACK_BYTES} past it) when the read lies inside it; false when it falls in no place, that
   * place alone is over the run limit, the read leaves the run, or the run is loaded already.
   */
  private boolean loadPlannedRun(long position, int count) throws IOException {
    int i = Arrays.binarySearch(starts, position);
    if (i < 0) {
      i = -i - 2; // the last place starting before the position
    } else {
      while (i > 0 && starts[i - 1] == position) {
        i--; // the first of equal starts (the members of a group)
      }
    }
    if (i < 0 || position >= ends[i] || ends[i] - starts[i] > maxRunBytes) {
      return false;
    }
    if (loaded > 0 && start == starts[i]) {
      return false; // loaded already: the read passes the run, the file serves it
    }
    int last = runEnd(starts, ends, i, file.coalesceBytes(), maxRunBytes);
    long end = ends[i];
    for (int j = i + 1; j < last; j++) {
      end = Math.max(end, ends[j]);
    }
    long runLength = end - starts[i] + SLACK_BYTES;
    if (position + count > starts[i] + runLength) {
      return false; // the read leaves the run: one read of the file serves it
    }
    load(starts[i], (int) runLength);
    return holds(position, count);
  }

  /**
   * The end (exclusive) of the run of places {@code [starts[k], ends[k])} (sorted by start) that
   * starts at {@code first}: the places after it while the gap to the run's end is at most {@code
   * gap} bytes and the run stays within {@code maxRunBytes} from its start. The one rule of what a
   * single read takes in, for planned passes and batch fetches alike.
   */
  public static int runEnd(long[] starts, long[] ends, int first, long gap, long maxRunBytes) {
    long end = ends[first];
    int next = first + 1;
    while (next < starts.length) {
      long newEnd = Math.max(end, ends[next]);
      if (starts[next] - end > gap || newEnd - starts[first] > maxRunBytes) {
        break;
      }
      end = newEnd;
      next++;
    }
    return next;
  }

  /** Reads of a loaded run are; an entry reader then reads a raw entry's content apart. */
  @Override
  public boolean servesFromMemory() {
    return true;
  }

  @Override
  public int coalesceBytes() {
    return file.coalesceBytes();
  }

  @Override
  public void close() throws IOException {
    if (owner) {
      file.close();
    }
  }
}
