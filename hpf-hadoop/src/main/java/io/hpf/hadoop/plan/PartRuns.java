package io.hpf.hadoop.plan;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Cuts an archive's selected entries into {@link EntryRun}s, part by part: each part file's block
 * locations are asked once (never one NameNode call per entry), then {@link SplitPlanner} cuts.
 */
public final class PartRuns {
  private PartRuns() {}

  /**
   * @param reader the archive, at the generation the rows come from
   * @param storage the archive's storage (for block locations)
   * @param selected live rows of the archive, any order
   * @param splitSize most bytes of a run; 0 for the part's block size
   */
  public static List<EntryRun> plan(
      ArchiveReader reader, Storage storage, Collection<EntryInfo> selected, long splitSize)
      throws IOException {
    return plan(reader, storage, selected, splitSize, 0);
  }

  /**
   * As {@link #plan(ArchiveReader, Storage, Collection, long)}; with no split size given, runs are
   * at most {@code goalBytes} (when positive) instead of a whole block: a small input still gives
   * every slot of a job a run (Hadoop's FileInputFormat splits by a goal size the same way).
   */
  public static List<EntryRun> plan(
      ArchiveReader reader,
      Storage storage,
      Collection<EntryInfo> selected,
      long splitSize,
      long goalBytes)
      throws IOException {
    Map<Integer, List<EntryInfo>> byPart = new TreeMap<>();
    for (EntryInfo row : selected) {
      byPart.computeIfAbsent(row.partId(), id -> new ArrayList<>()).add(row);
    }
    List<EntryRun> runs = new ArrayList<>();
    for (var part : byPart.entrySet()) {
      List<EntryInfo> entries = part.getValue();
      entries.sort(Comparator.comparingLong(EntryInfo::offset).thenComparingInt(EntryInfo::member));
      long committed = committedLength(reader.manifest(), part.getKey());
      BlockLocation[] blocks =
          HadoopArchives.partBlocks(storage, part.getKey(), 0, Math.max(1, committed));
      long size =
          splitSize > 0
              ? splitSize
              : Math.min(
                  defaultSplitSize(blocks, committed), goalBytes > 0 ? goalBytes : Long.MAX_VALUE);
      runs.addAll(SplitPlanner.plan(part.getKey(), entries, blocks, size));
    }
    return runs;
  }

  /** The part's block size: its first block's length when it has several, else its length. */
  private static long defaultSplitSize(BlockLocation[] blocks, long committed) {
    return blocks.length > 1 ? blocks[0].getLength() : Math.max(1, committed);
  }

  /** The committed length of a part, -1 if the manifest does not name it. */
  public static long committedLength(Generation manifest, int partId) {
    for (Generation.Part p : manifest.parts()) {
      if (p.partId() == partId) {
        return p.committedLength();
      }
    }
    return -1;
  }
}
