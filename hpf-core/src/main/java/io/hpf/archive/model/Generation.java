package io.hpf.archive.model;

import java.util.List;

/**
 * What one committed generation of an archive is, as its manifest records it (FORMAT.md
 * "Manifest"): when and by what it was committed, what it holds, and its history. What a commit
 * returns and what a reader reads; immutable.
 */
public interface Generation {
  /** The generation number: 1 for the first commit, one more for each commit after it. */
  long generation();

  /** When the generation was committed, ms since the epoch. */
  long commitMillis();

  /** What committed it: {@code create}, {@code add}, {@code compact}, {@code recover}, ... */
  String operation();

  /** Live entries: names a reader finds. */
  long liveEntries();

  /** Raw bytes of the live entries. */
  long liveEntryBytes();

  /** How the archive's writers store new entries. */
  ArchiveSettings writerSettings();

  /** The part files holding the generation's entries. */
  List<Part> parts();

  /** Past commits, oldest first, this one last. */
  List<Change> history();

  /** Part-file bytes no live entry uses: what a reclaiming compaction would free. */
  long deadBytes();

  /** Segments: one per commit since the last compaction that merged them. */
  int segmentCount();

  /**
   * Whether this generation is {@code earlier} or a later commit of the same archive: its history
   * holds {@code earlier}'s commit, at the same time. An archive deleted and made again, or another
   * archive put in its place, starts a history of its own; the history keeps the last 100 commits,
   * so a generation that far behind is not followed either.
   */
  default boolean follows(Generation earlier) {
    if (generation() <= earlier.generation()) { // itself, or nothing later: no history to walk
      return generation() == earlier.generation() && commitMillis() == earlier.commitMillis();
    }
    for (Change h : history()) {
      if (h.generation() == earlier.generation()) {
        return h.commitMillis() == earlier.commitMillis();
      }
    }
    return false;
  }

  /** Bytes of all part files up to their committed lengths. */
  default long partBytes() {
    return parts().stream().mapToLong(Part::committedLength).sum();
  }

  /**
   * A part file of the generation.
   *
   * @param partId its id (its file is named by {@link io.hpf.archive.ArchiveFormat#partFileName})
   * @param committedLength the length up to which its entries are committed
   */
  record Part(int partId, long committedLength) {}

  /**
   * One past commit.
   *
   * @param liveEntries entries after the commit
   */
  record Change(long generation, long commitMillis, String operation, long liveEntries) {}
}
