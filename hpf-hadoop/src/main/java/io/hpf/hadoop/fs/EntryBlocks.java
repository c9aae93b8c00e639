package io.hpf.hadoop.fs;

import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;

/** Maps the blocks of a part file holding an entry onto the entry's own content offsets. */
final class EntryBlocks {
  private EntryBlocks() {}

  /**
   * The blocks of {@code partBlocks} (offsets in the part) overlapping the entry, as locations in
   * the entry's raw content, keeping those that overlap {@code [start, start + length)}.
   */
  static BlockLocation[] locate(
      EntryInfo entry, BlockLocation[] partBlocks, long start, long length) throws IOException {
    List<BlockLocation> out = new ArrayList<>();
    long entryStart = entry.offset();
    long entryEnd = entry.offset() + entry.entryLength();
    for (BlockLocation b : partBlocks) {
      long from = Math.max(b.getOffset(), entryStart) - entryStart;
      long to = Math.min(b.getOffset() + b.getLength(), entryEnd) - entryStart;
      if (to <= from && entry.rawLength() > 0) {
        continue;
      }
      long rawFrom = scale(from, entry);
      long rawTo = scale(to, entry);
      boolean overlaps =
          rawTo > start && rawFrom < start + Math.max(length, 1) || entry.rawLength() == 0;
      if (overlaps) {
        out.add(
            new BlockLocation(
                b.getNames(),
                b.getHosts(),
                b.getTopologyPaths(),
                rawFrom,
                rawTo - rawFrom,
                b.isCorrupt()));
      }
    }
    return out.toArray(new BlockLocation[0]);
  }

  /** An offset in the entry's stored bytes as an offset in its raw content. */
  private static long scale(long storedOffset, EntryInfo entry) {
    if (storedOffset >= entry.entryLength()) {
      return entry.rawLength();
    }
    return (long) ((double) storedOffset * entry.rawLength() / entry.entryLength());
  }
}
