package io.hpf.hadoop.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.BlockLocation;
import org.junit.jupiter.api.Test;

/** Split planning against its rules, for random parts, block sizes and split sizes. */
class SplitPlannerTest {
  private static EntryInfo row(long offset, long length) {
    return new EntryInfo(
        "e" + offset,
        false,
        length,
        length,
        Codec.NONE,
        0,
        0,
        0644,
        Map.of(),
        1,
        offset,
        length,
        0,
        0);
  }

  private static BlockLocation[] blocks(long partLength, long blockSize) {
    List<BlockLocation> out = new ArrayList<>();
    for (long at = 0, i = 0; at < partLength; at += blockSize, i++) {
      String host = "h" + (i % 5);
      out.add(
          new BlockLocation(
              new String[] {host + ":1"},
              new String[] {host},
              at,
              Math.min(blockSize, partLength - at)));
    }
    return out.toArray(new BlockLocation[0]);
  }

  @Test
  void everyEntryInExactlyOneSplitWithinItsSizeAndBlockGroup() throws Exception {
    SplittableRandom random = new SplittableRandom(11);
    for (int trial = 0; trial < 300; trial++) {
      long blockSize = 1L << random.nextInt(12, 20);
      long splitSize = 1L << random.nextInt(10, 22);
      List<EntryInfo> all = new ArrayList<>();
      long at = 64;
      int n = random.nextInt(0, 400);
      for (int i = 0; i < n; i++) {
        long length =
            random.nextInt(10) == 0 ? random.nextLong(1, 4 * blockSize) : random.nextLong(1, 5000);
        all.add(row(at, length));
        at += length;
      }
      BlockLocation[] blocks = blocks(Math.max(at, 1), blockSize);
      // A selection: some entries left out, as a selector would.
      List<EntryInfo> selected = new ArrayList<>();
      for (EntryInfo e : all) {
        if (random.nextInt(4) != 0) {
          selected.add(e);
        }
      }
      List<EntryRun> splits = SplitPlanner.plan(1, selected, blocks, splitSize);
      List<Long> covered = new ArrayList<>();
      long blocksPerGroup = blocks.length > 1 ? Math.max(1, splitSize / blockSize) : 1;
      int r = 0;
      for (EntryRun split : splits) {
        long[] offsets = split.offsets();
        assertTrue(offsets.length > 0);
        long bytes = 0;
        long group = SplitPlanner.blockIndex(blocks, offsets[0]) / blocksPerGroup;
        for (long offset : offsets) {
          EntryInfo e = selected.get(r++);
          assertEquals(e.offset(), offset, "in order, each once");
          bytes += e.entryLength();
          assertEquals(group, SplitPlanner.blockIndex(blocks, offset) / blocksPerGroup);
          covered.add(offset);
        }
        assertEquals(bytes, split.bytes());
        assertTrue(bytes <= splitSize || offsets.length == 1, "over the split size: " + split);
        String[] hosts = split.hosts();
        assertTrue(hosts.length > 0);
        // The first host holds the most of the split's bytes (a model of the rule).
        long end = selected.get(r - 1).offset() + selected.get(r - 1).entryLength();
        Map<String, Long> held = new java.util.HashMap<>();
        for (BlockLocation b : blocks) {
          long overlap =
              Math.min(end, b.getOffset() + b.getLength()) - Math.max(offsets[0], b.getOffset());
          if (overlap > 0) {
            held.merge(b.getHosts()[0], overlap, Long::sum);
          }
        }
        long most = held.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertEquals(most, held.get(hosts[0]), "hosts[0] holds the most bytes");
        assertEquals(held.keySet(), java.util.Set.of(hosts));
      }
      assertEquals(selected.size(), covered.size());
      // Neighbours in one group are merged while they fit: no two consecutive splits of one group
      // could have been one.
      for (int i = 1; i < splits.size(); i++) {
        EntryRun a = splits.get(i - 1);
        EntryRun b = splits.get(i);
        long ga = SplitPlanner.blockIndex(blocks, a.offsets()[0]) / blocksPerGroup;
        long gb = SplitPlanner.blockIndex(blocks, b.offsets()[0]) / blocksPerGroup;
        if (ga == gb) {
          long firstOfB = selected.get(indexOf(selected, b.offsets()[0])).entryLength();
          assertTrue(a.bytes() + firstOfB > splitSize, "could have merged: " + a + ", " + b);
        }
      }
    }
  }

  private static int indexOf(List<EntryInfo> rows, long offset) {
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).offset() == offset) {
        return i;
      }
    }
    throw new AssertionError(offset);
  }
}
