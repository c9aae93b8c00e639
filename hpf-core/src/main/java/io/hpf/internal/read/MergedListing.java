package io.hpf.internal.read;

import io.hpf.archive.EntryInfo;
import io.hpf.internal.format.EntryNames;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Merges sorted catalog listings of several segments (newest first) into one sorted listing of live
 * entries: for a name in several segments the newest row wins, and a tombstone hides it. Not
 * thread-safe.
 */
public final class MergedListing implements Iterator<EntryInfo> {
  private record Head(byte[] name, EntryInfo row, int source) {}

  private final List<Iterator<EntryInfo>> sources;
  private final PriorityQueue<Head> heads =
      new PriorityQueue<>(
          (a, b) -> {
            int c = Arrays.compareUnsigned(a.name, b.name);
            return c != 0 ? c : Integer.compare(a.source, b.source);
          });
  private final boolean keepTombstones;
  private EntryInfo next;

  public MergedListing(List<Iterator<EntryInfo>> sourcesNewestFirst) {
    this(sourcesNewestFirst, false);
  }

  /**
   * @param keepTombstones return the newest row even when it is a tombstone (compaction of segments
   *     that do not include the oldest must keep deletions of older names)
   */
  public MergedListing(List<Iterator<EntryInfo>> sourcesNewestFirst, boolean keepTombstones) {
    this.sources = sourcesNewestFirst;
    this.keepTombstones = keepTombstones;
    if (sources.size() > 1) {
      for (int i = 0; i < sources.size(); i++) {
        advance(i);
      }
    }
  }

  private void advance(int source) {
    Iterator<EntryInfo> it = sources.get(source);
    if (it.hasNext()) {
      EntryInfo row = it.next();
      heads.add(new Head(EntryNames.utf8(row.name()), row, source));
    }
  }

  @Override
  public boolean hasNext() {
    if (sources.size() == 1) {
      return hasNextOfOne(sources.get(0));
    }
    while (next == null && !heads.isEmpty()) {
      Head newest = heads.poll();
      advance(newest.source);
      // Older rows of the same name are shadowed.
      while (!heads.isEmpty() && Arrays.equals(heads.peek().name, newest.name)) {
        advance(heads.poll().source);
      }
      if (keepTombstones || !newest.row.deleted()) {
        next = newest.row;
      }
    }
    return next != null;
  }

  /** One segment (a compacted archive) has nothing to merge: no name is encoded to compare. */
  private boolean hasNextOfOne(Iterator<EntryInfo> only) {
    while (next == null && only.hasNext()) {
      EntryInfo row = only.next();
      if (keepTombstones || !row.deleted()) {
        next = row;
      }
    }
    return next != null;
  }

  @Override
  public EntryInfo next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    EntryInfo row = next;
    next = null;
    return row;
  }
}
