package io.hpf.internal.read;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.sort.Merge;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Merges sorted catalog listings of several segments (newest first) into one sorted listing of live
 * entries: for a name in several segments the newest row wins, and a tombstone hides it. Not
 * thread-safe.
 */
public final class MergedListing implements Iterator<EntryInfo> {
  private record Head(byte[] name, EntryInfo row) {}

  private final Iterator<EntryInfo> only; // one segment: nothing to merge, no name encoded
  private final Merge<Head> merge; // several: stable, so the newest of equal names comes first
  private final boolean keepTombstones;
  private Head taken; // the merge's head after the last name, read to see that the name changed
  private EntryInfo next;

  public MergedListing(List<Iterator<EntryInfo>> sourcesNewestFirst) {
    this(sourcesNewestFirst, false);
  }

  /**
   * @param keepTombstones return the newest row even when it is a tombstone (compaction of segments
   *     that do not include the oldest must keep deletions of older names)
   */
  public MergedListing(List<Iterator<EntryInfo>> sourcesNewestFirst, boolean keepTombstones) {
    this.keepTombstones = keepTombstones;
    if (sourcesNewestFirst.size() == 1) {
      this.only = sourcesNewestFirst.get(0);
      this.merge = null;
      return;
    }
    this.only = null;
    List<Merge.Source<Head>> sources = new ArrayList<>();
    for (Iterator<EntryInfo> it : sourcesNewestFirst) {
      sources.add(() -> it.hasNext() ? head(it.next()) : null);
    }
    try {
      this.merge = new Merge<>(sources, (a, b) -> Arrays.compareUnsigned(a.name, b.name));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // iterators throw none
    }
    this.taken = advance();
  }

  private static Head head(EntryInfo row) {
    return new Head(EntryNames.utf8(row.name()), row);
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      EntryInfo newest = nextName();
      if (newest == null) {
        return false;
      }
      if (keepTombstones || !newest.deleted()) {
        next = newest;
      }
    }
    return true;
  }

  /** The newest row of the next name, or null after the last. */
  private EntryInfo nextName() {
    if (only != null) {
      return only.hasNext() ? only.next() : null;
    }
    Head newest = taken;
    if (newest == null) {
      return null;
    }
    // Older rows of the same name are shadowed.
    do {
      taken = advance();
    } while (taken != null && Arrays.equals(taken.name, newest.name));
    return newest.row;
  }

  private Head advance() {
    try {
      return merge.next();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // iterators throw none
    }
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
