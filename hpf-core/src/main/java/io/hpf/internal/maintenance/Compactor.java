package io.hpf.internal.maintenance;

import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.format.EntryHeader;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.read.GenerationAccess;
import io.hpf.internal.read.MergedListing;
import io.hpf.internal.read.SegmentReader;
import io.hpf.internal.write.PartPool;
import io.hpf.internal.write.PartWriter;
import io.hpf.internal.write.SortedRows;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Merges segments. Index-only: the catalogs of a run of adjacent segments are merged (newest row of
 * a name wins) into one new segment whose records point at the same part files; tombstones survive
 * unless the run starts at the oldest segment. Reclaiming: every live entry is copied verbatim
 * (after its checksums are checked) into new part files and one segment indexes them; the old parts
 * are no longer named and go after the grace period.
 */
public final class Compactor {
  /** Segments per tier before they merge (size-tiered, as in LSM trees). */
  public static final int MERGE_FACTOR = 4;

  private Compactor() {}

  /** A run [from, to) of the manifest's segments (oldest first) to merge, or null. */
  public record Run(int from, int to) {}

  /**
   * The size-tiered choice: the newest run of at least {@link #MERGE_FACTOR} adjacent segments of
   * the same size tier (rows within a factor of 4), else, past {@code maxSegments}, the two
   * adjacent segments with the fewest rows together.
   */
  public static Run chooseRun(Manifest m, int maxSegments) {
    List<Manifest.SegmentRef> s = m.segments();
    int end = s.size();
    while (end >= MERGE_FACTOR) {
      int tier = tier(s.get(end - 1));
      int start = end - 1;
      while (start > 0 && tier(s.get(start - 1)) == tier) {
        start--;
      }
      if (end - start >= MERGE_FACTOR) {
        return new Run(start, end);
      }
      end = start;
    }
    if (s.size() > maxSegments) {
      return smallestPair(s);
    }
    return null;
  }

  /**
   * The two adjacent segments with the fewest rows together, the newest of equals. Merging the
   * newest ones instead would rewrite the same ever-growing segment at every commit once the older
   * ones sit in different tiers (a writer committing many times a second made each commit cost the
   * archive's size).
   */
  private static Run smallestPair(List<Manifest.SegmentRef> s) {
    int best = s.size() - 2;
    long bestRows = Long.MAX_VALUE;
    for (int i = s.size() - 2; i >= 0; i--) {
      long rows = rows(s.get(i)) + rows(s.get(i + 1));
      if (rows < bestRows) {
        best = i;
        bestRows = rows;
      }
    }
    return new Run(best, best + 2);
  }

  private static long rows(Manifest.SegmentRef s) {
    return s.entryCount() + s.tombstoneCount();
  }

  private static int tier(Manifest.SegmentRef s) {
    long rows = Math.max(1, s.entryCount() + s.tombstoneCount());
    return (63 - Long.numberOfLeadingZeros(rows)) / 2; // log base 4
  }

  /**
   * The rows of a run's segments merged into one (the newest row of each name), read from their
   * catalogs as they are asked for: once to count them, then as the new segment is written.
   */
  public static SortedRows mergedRows(Manifest m, GenerationAccess reader, Run run)
      throws IOException {
    List<SegmentReader> newestFirst = reader.segmentsNewestFirst();
    int count = m.segments().size();
    List<CatalogReader> merged = new ArrayList<>();
    for (int i = run.to() - 1; i >= run.from(); i--) {
      merged.add(newestFirst.get(count - 1 - i).catalog());
    }
    boolean keepTombstones = run.from() > 0;
    Supplier<Iterator<EntryInfo>> listing =
        () -> new MergedListing(merged.stream().map(c -> c.list("")).toList(), keepTombstones);
    long rows = 0;
    long bytes = 0;
    try {
      for (Iterator<EntryInfo> it = listing.get(); it.hasNext(); ) {
        bytes += it.next().accountedBytes();
        rows++;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return new ListedRows(listing, rows, bytes);
  }

  /** Rows of a listing, which is made anew for each reading. */
  private record ListedRows(Supplier<Iterator<EntryInfo>> listing, long size, long accountedBytes)
      implements SortedRows {
    @Override
    public Cursor open() {
      return Cursor.of(listing.get(), () -> {});
    }

    @Override
    public void close() {}
  }

  /**
   * Copies every live entry, in part order, into the pool's new parts, checking each entry's
   * checksums on the way (a damaged entry stops the compaction; nothing is committed). An entry on
   * its own, and a group whose members are all live, are copied verbatim (no decoding, no
   * recompression); the live members of a group with dead ones join a new group (the dead ones are
   * what is reclaimed). The rows in their new places are the parts' rows once they are finished.
   */
  public static void copyLive(GenerationAccess reader, PartPool pool) throws IOException {
    byte[] buffer = new byte[1 << 16];
    List<EntryInfo> rows = reader.entriesInPartOrder();
    Map<GroupPlace, List<EntryInfo>> liveMembers = new HashMap<>();
    for (EntryInfo row : rows) {
      if (row.inGroup()) {
        liveMembers.computeIfAbsent(GroupPlace.of(row), k -> new ArrayList<>()).add(row);
      }
    }
    reader.walk(
        rows,
        (row, part, entry) -> {
          part.check(entry); // the checksums hold before a byte is copied (a group's, decoding it)
          List<EntryInfo> members = entry.inGroup() ? liveMembers.get(GroupPlace.of(row)) : null;
          boolean wholeGroup = members != null && members.size() == row.members();
          if (wholeGroup && row.member() != members.get(0).member()) {
            return; // copied with its group's first member
          }
          PartWriter out = pool.borrow();
          try {
            if (entry.inGroup() && !wholeGroup) {
              byte[] content = part.content(entry);
              EntryHeader h = entry.header();
              out.append(
                  row.name(),
                  EntryNames.utf8(row.name()),
                  content,
                  content.length,
                  new EntryMetadata(h.mtimeMillis(), h.mode(), h.attributes()));
            } else {
              PartEntry whole = wholeGroup ? part.readAt(row.offset()) : entry;
              try (InputStream bytes = part.openStored(whole)) {
                out.appendCopy(wholeGroup ? members : List.of(row), bytes, whole.length(), buffer);
              }
            }
          } finally {
            pool.giveBack(out);
          }
        });
  }

  /** Where a group lies: the members of one group share it. */
  private record GroupPlace(int partId, long offset) {
    static GroupPlace of(EntryInfo row) {
      return new GroupPlace(row.partId(), row.offset());
    }
  }
}
