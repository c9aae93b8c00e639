package io.hpf.internal.manifest;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Generation;
import io.hpf.internal.index.SegmentDirectory;
import java.util.List;

/**
 * One committed generation of an archive (FORMAT.md "Manifest"): everything a reader needs to find
 * any entry. Immutable; a reader keeps the one it opened for its whole life (a snapshot).
 *
 * @param generation increases by one with each commit
 * @param commitMillis when the commit happened, ms since the epoch
 * @param operation what the commit did, for people ("add 1203 entries")
 * @param bucketCapacity the most records a bucket file may hold
 * @param writerSettings how writers store new entries (codec, groups); null in a manifest of
 *     versions 1 to 4, which did not record them
 * @param liveEntries entries a reader of this generation sees
 * @param liveEntryBytes bytes of those entries in part files (headers, content, trailers)
 * @param dictionaries the zstd dictionaries entries may name
 * @param parts the part files and how many of their bytes are committed
 * @param segments the segments, oldest first
 * @param history the latest commits, oldest first, this one last (at most {@link #HISTORY_LIMIT})
 * @param idMarks the highest part and segment ids any committed manifest of the archive has named
 *     (version 7); null in a manifest of versions 1 to 6, which did not record them
 */
public record Manifest(
    long generation,
    long commitMillis,
    String operation,
    int bucketCapacity,
    ArchiveSettings writerSettings,
    long liveEntries,
    long liveEntryBytes,
    List<DictionaryRef> dictionaries,
    List<Generation.Part> parts,
    List<SegmentRef> segments,
    List<Generation.Change> history,
    IdMarks idMarks)
    implements Generation {

  /** How many past commits a manifest remembers for {@code hpf log}. */
  public static final int HISTORY_LIMIT = 100;

  public Manifest {
    dictionaries = List.copyOf(dictionaries);
    parts = List.copyOf(parts);
    segments = List.copyOf(segments);
    history = List.copyOf(history);
  }

  /**
   * A dictionary: its id and where its bytes are (FORMAT.md "Manifest").
   *
   * @param length bytes of the dictionary (its file, or its section of a segment file)
   * @param segmentId the segment whose file holds it (version 4), or 0 for a file of its own
   *     (versions 1 to 3)
   * @param offset where it starts in that segment file (0 in a file of its own)
   */
  public record DictionaryRef(int dictionaryId, long length, int segmentId, long offset) {
    /** A dictionary in its own file, as versions 1 to 3 wrote them. */
    public static DictionaryRef ownFile(int dictionaryId, long length) {
      return new DictionaryRef(dictionaryId, length, 0, 0);
    }

    public boolean inSegmentFile() {
      return segmentId != 0;
    }
  }

  /**
   * A segment: its index directory and catalog.
   *
   * @param entryCount entry rows of the segment's catalog (not tombstones); an entry may be
   *     shadowed by a newer segment
   * @param tombstoneCount names this segment deletes
   * @param catalogLength the catalog's length (its file's, or its section's of the segment file)
   * @param fileLength the segment file's length (version 4: catalog, buckets and dictionaries in
   *     one file), or 0 for a segment whose catalog and buckets are files of their own (versions 1
   *     to 3)
   */
  public record SegmentRef(
      int segmentId,
      long entryCount,
      long tombstoneCount,
      long catalogLength,
      SegmentDirectory directory,
      long fileLength) {
    public boolean inSegmentFile() {
      return fileLength != 0;
    }
  }

  /**
   * FORMAT.md "Manifest": every part id and segment id up to these was named by a committed
   * manifest once (or by none, and is never used), so a file above them is the work of a writer
   * that never committed, and a writer takes new ids above them.
   */
  public record IdMarks(int parts, int segments) {}

  /** This manifest with id marks (the ids of older manifests, for one of versions 1 to 6). */
  public Manifest withIdMarks(IdMarks marks) {
    return new Manifest(
        generation,
        commitMillis,
        operation,
        bucketCapacity,
        writerSettings,
        liveEntries,
        liveEntryBytes,
        dictionaries,
        parts,
        segments,
        history,
        marks);
  }

  /** Whether this manifest names part {@code partId}. */
  public boolean namesPart(int partId) {
    return parts.stream().anyMatch(p -> p.partId() == partId);
  }

  /** The highest part id committed so far: the mark, or this manifest's own highest id. */
  public int partIdMark() {
    return Math.max(maxPartId(), idMarks == null ? 0 : idMarks.parts());
  }

  /** The highest segment id committed so far: the mark, or this manifest's own highest id. */
  public int segmentIdMark() {
    return Math.max(maxSegmentId(), idMarks == null ? 0 : idMarks.segments());
  }

  /** Entries a reader of this generation sees. */
  public long entryCount() {
    return liveEntries;
  }

  /** Part bytes no live entry uses: what a reclaiming compaction would free. */
  @Override
  public long deadBytes() {
    long headers = (long) parts.size() * io.hpf.internal.format.FormatConstants.FILE_HEADER_BYTES;
    return Math.max(0, partBytes() - headers - liveEntryBytes);
  }

  @Override
  public int segmentCount() {
    return segments.size();
  }

  public int maxPartId() {
    return parts.stream().mapToInt(Part::partId).max().orElse(0);
  }

  public int maxSegmentId() {
    return segments.stream().mapToInt(SegmentRef::segmentId).max().orElse(0);
  }

  /** The history of the next generation: this one's plus the new commit, trimmed. */
  public List<Change> historyWith(Change next) {
    List<Change> all = new java.util.ArrayList<>(history);
    all.add(next);
    return all.subList(Math.max(0, all.size() - HISTORY_LIMIT), all.size());
  }
}
