package io.hpf.archive;

import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.maintenance.Compactor;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.write.PartWriter;
import io.hpf.internal.write.SortedRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer's compactions: the policy run after every commit (reclaim when dead bytes pass the
 * ratio, else size-tiered merges of segments; {@link Compactor} chooses the runs) and {@link
 * ArchiveWriter#compact} on demand. Each merge or reclaim is one commit of its own through {@link
 * WriterCommits}. REQUIRES of every method: a committed base and nothing pending.
 */
final class WriterCompaction {
  private WriterCompaction() {}

  /**
   * Runs the policy: reclaim when dead bytes (killed writers' tails included) pass the ratio of the
   * part files' bytes, else tiered segment merges.
   */
  static void byPolicy(WriterCommits commits, WriterOptions options) throws IOException {
    byPolicy(commits, options, true);
  }

  /**
   * As {@link #byPolicy(WriterCommits, WriterOptions)}; without {@code whole}, only the tiered
   * merges (amortized: each entry is merged about once per tier), not the merges that keep the
   * segment count within the limit nor a reclaim, which a writer committing under load leaves for
   * when it has time ({@link GroupCommitWriter}).
   */
  static void byPolicy(WriterCommits commits, WriterOptions options, boolean whole)
      throws IOException {
    if (!options.autoCompact()) {
      return;
    }
    Manifest base = commits.base();
    long tails = commits.tailBytes();
    long fileBytes = base.partBytes() + tails;
    if (whole && fileBytes > 0 && base.deadBytes() + tails > options.reclaimRatio() * fileBytes) {
      reclaim(commits, AUTO);
      return;
    }
    int limit = whole ? options.maxSegments() : Integer.MAX_VALUE;
    for (Compactor.Run run = Compactor.chooseRun(commits.base(), limit);
        run != null;
        run = Compactor.chooseRun(commits.base(), limit)) {
      mergeRun(commits, run, AUTO);
    }
  }

  /** Merges the newest segments whose ids are {@code firstSegmentId} or more, if two or more. */
  static void mergeNewest(WriterCommits commits, long firstSegmentId) throws IOException {
    List<Manifest.SegmentRef> segments = commits.base().segments();
    int from = segments.size();
    while (from > 0 && segments.get(from - 1).segmentId() >= firstSegmentId) {
      from--;
    }
    if (segments.size() - from > 1) {
      mergeRun(commits, new Compactor.Run(from, segments.size()), AUTO);
    }
  }

  /** How {@code hpf log} names a compaction the policy ran after a commit, not a user's. */
  private static final String AUTO = "auto-";

  /**
   * Merges every segment into one; with {@code reclaim}, also rewrites the live entries into new
   * part files so that the space of deleted and replaced entries is freed.
   */
  static CompactionResult compact(WriterCommits commits, boolean reclaim) throws IOException {
    Manifest base = commits.base();
    int before = base.segments().size();
    // A reclaim with nothing to free, merge or gather (parts of a job, into bigger ones) would
    // rewrite the archive as it is: nothing is committed.
    boolean nothingToDo =
        base.deadBytes() + commits.tailBytes() == 0 && before <= 1 && base.parts().size() <= 1;
    if (!reclaim || nothingToDo) {
      if (before > 1) {
        mergeRun(commits, new Compactor.Run(0, before), "");
      }
      return new CompactionResult(
          before, commits.base().segments().size(), false, 0, commits.base());
    }
    return reclaim(commits, "");
  }

  /** Rewrites the live entries into new parts: one commit, named for {@code hpf log}. */
  private static CompactionResult reclaim(WriterCommits commits, String by) throws IOException {
    Manifest base = commits.base();
    int before = base.segments().size();
    long oldBytes = base.partBytes() + commits.tailBytes(); // what the part files hold
    commits.pool().finishAll(); // parts kept open by a group writer: its copies go to new ones
    Compactor.copyLive(commits.snapshot().access(), commits.pool());
    List<PartWriter.Checkpoint> parts = WriterCommits.checkpoints(commits.pool().finishAll());
    List<Generation.Part> newParts = WriterCommits.partsOf(parts);
    long newBytes = newParts.stream().mapToLong(Generation.Part::committedLength).sum();
    Manifest next;
    try (SortedRows rows = WriterCommits.sortedRowsOf(parts)) {
      next =
          commits.commitNewSegment(
              rows,
              newParts,
              List.of(),
              0,
              base.liveEntries(),
              rows.accountedBytes(),
              by
                  + "compact --reclaim: "
                  + before
                  + " segments to 1, "
                  + (oldBytes - newBytes)
                  + " bytes reclaimed",
              null);
    }
    commits.advance(next);
    return new CompactionResult(before, 1, true, oldBytes - newBytes, next);
  }

  /** Merges the segments of {@code run} into one, in place: an index-only commit. */
  private static void mergeRun(WriterCommits commits, Compactor.Run run, String by)
      throws IOException {
    Manifest base = commits.base();
    int before = base.segments().size();
    List<Manifest.SegmentRef> kept = new ArrayList<>(base.segments());
    kept.subList(run.from(), run.to()).clear();
    Manifest next =
        commits.commitNewSegment(
            Compactor.mergedRows(base, commits.snapshot().access(), run),
            base.parts(),
            kept,
            run.from(),
            base.liveEntries(),
            base.liveEntryBytes(),
            by
                + "compact: segments "
                + (run.from() + 1)
                + "-"
                + run.to()
                + " of "
                + before
                + " merged (index only)",
            null);
    commits.advance(next);
  }
}
