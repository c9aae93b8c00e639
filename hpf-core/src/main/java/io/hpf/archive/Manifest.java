package io.hpf.archive;

import io.hpf.index.SegmentDirectory;
import java.util.List;

/**
 * One committed generation of an archive (FORMAT.md "Manifest"): everything a reader needs to find
 * any entry. Immutable; a reader keeps the one it opened for its whole life (a snapshot).
 *
 * @param generation increases by one with each commit
 * @param commitMillis when the commit happened, ms since the epoch
 * @param operation what the commit did, for people ("create 1203 entries")
 * @param bucketCapacity the most records a bucket file may hold
 * @param dictionaries the zstd dictionaries entries may name
 * @param parts the part files and how many of their bytes are committed
 * @param segments the segments, oldest first
 */
public record Manifest(
    long generation,
    long commitMillis,
    String operation,
    int bucketCapacity,
    List<DictionaryRef> dictionaries,
    List<PartRef> parts,
    List<SegmentRef> segments) {

  public Manifest {
    dictionaries = List.copyOf(dictionaries);
    parts = List.copyOf(parts);
    segments = List.copyOf(segments);
  }

  /** A dictionary file: its id and length. */
  public record DictionaryRef(int dictionaryId, long fileLength) {}

  /** A part file: its id and the length up to which its entries are committed. */
  public record PartRef(int partId, long committedLength) {}

  /**
   * A segment: its index directory and catalog.
   *
   * @param entryCount live entries added by this segment (catalog rows that are not tombstones)
   * @param tombstoneCount names this segment deletes
   * @param catalogLength the catalog file's length
   */
  public record SegmentRef(
      int segmentId,
      long entryCount,
      long tombstoneCount,
      long catalogLength,
      SegmentDirectory directory) {}

  /** Total entries across segments (equal to the live entry count while there is one segment). */
  public long entryCount() {
    return segments.stream().mapToLong(SegmentRef::entryCount).sum();
  }

  public long partBytes() {
    return parts.stream().mapToLong(PartRef::committedLength).sum();
  }
}
