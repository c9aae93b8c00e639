package io.hpf.hadoop.plan;

import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Cuts the selected entries of one part file into splits (SFMapReduce's combine splits): whole
 * entries, in offset order, up to the split size; an entry over the split size is a split alone. A
 * split does not cross from one group of blocks to the next ({@code splitSize / blockSize} blocks a
 * group, at least one), so its bytes sit on the same hosts; an entry belongs to the block it starts
 * in. Pure: no I/O. MapReduce splits and Spark partitions are both cut by it.
 */
public final class SplitPlanner {
  private SplitPlanner() {}

  /**
   * @param rows the part's selected entries, sorted by offset
   * @param blocks the part's blocks (offsets in the part), in order
   * @param splitSize most bytes of a split (an entry larger makes a split alone)
   */
  public static List<EntryRun> plan(
      int partId, List<EntryInfo> rows, BlockLocation[] blocks, long splitSize) throws IOException {
    long blockSize = blocks.length > 1 ? blocks[0].getLength() : Long.MAX_VALUE;
    long blocksPerGroup = blockSize == Long.MAX_VALUE ? 1 : Math.max(1, splitSize / blockSize);
    List<EntryRun> splits = new ArrayList<>();
    int first = 0;
    long bytes = 0;
    long group = -1;
    for (int i = 0; i < rows.size(); i++) {
      EntryInfo row = rows.get(i);
      long rowGroup = blockIndex(blocks, row.offset()) / blocksPerGroup;
      boolean full = bytes > 0 && bytes + row.accountedBytes() > splitSize;
      // The members of a group stay in one split: a group is read and decompressed whole.
      boolean sameGroup = i > 0 && row.inGroup() && rows.get(i - 1).offset() == row.offset();
      if (i > first && !sameGroup && (full || rowGroup != group)) {
        splits.add(run(partId, rows.subList(first, i), blocks));
        first = i;
        bytes = 0;
      }
      if (i == first) {
        group = rowGroup;
      }
      bytes += row.accountedBytes();
    }
    if (first < rows.size()) {
      splits.add(run(partId, rows.subList(first, rows.size()), blocks));
    }
    return splits;
  }

  /** The index of the block holding {@code offset} (the last block if past them all). */
  public static int blockIndex(BlockLocation[] blocks, long offset) {
    int lo = 0;
    int hi = blocks.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (blocks[mid].getOffset() <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private static EntryRun run(int partId, List<EntryInfo> rows, BlockLocation[] blocks)
      throws IOException {
    long length = 0;
    for (EntryInfo row : rows) {
      length += row.accountedBytes();
    }
    EntryInfo first = rows.get(0);
    EntryInfo last = rows.get(rows.size() - 1);
    String[] hosts = hostsHoldingMost(blocks, first.offset(), last.offset() + last.entryLength());
    return new EntryRun(partId, List.copyOf(rows), length, hosts);
  }

  /** Hosts ordered by how many bytes of {@code [start, end)} their blocks hold, most first. */
  public static String[] hostsHoldingMost(BlockLocation[] blocks, long start, long end)
      throws IOException {
    Map<String, Long> bytes = new HashMap<>();
    List<String> order = new ArrayList<>();
    for (BlockLocation b : blocks) {
      long overlap = Math.min(end, b.getOffset() + b.getLength()) - Math.max(start, b.getOffset());
      if (overlap <= 0 && !(b.getLength() == 0 && start == end)) {
        continue;
      }
      for (String host : b.getHosts()) {
        if (!bytes.containsKey(host)) {
          order.add(host);
        }
        bytes.merge(host, Math.max(0, overlap), Long::sum);
      }
    }
    order.sort(Comparator.comparing((String h) -> -bytes.get(h)));
    return order.toArray(new String[0]);
  }
}
