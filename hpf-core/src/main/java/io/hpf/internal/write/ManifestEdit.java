package io.hpf.internal.write;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.DictionarySource;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one commit changes from the last manifest (FORMAT.md "Manifest", "Commit protocol"): it
 * writes the commit's segment file and works out the next manifest, which names the parts and
 * segments that stay, says where every dictionary is, and carries the next generation, the history
 * and the writer's settings. Making that manifest current is {@code ManifestStore.commit}'s.
 *
 * <p>Dictionaries stay where they are while the segment file holding each stays. One whose segment
 * the commit drops (a merge or a compaction replaced it), one in a file of its own (versions 1 to
 * 3) when the commit compacts, and a new archive's first one move into the new segment file.
 *
 * <p>One edit per commit; not thread-safe.
 */
public final class ManifestEdit {
  private final Storage storage;
  private final Manifest base;
  private final DictionarySource baseDictionaries;
  private final Dictionary firstDictionary;
  private final int bucketCapacity;
  private final ArchiveSettings settings;

  /**
   * @param base the last committed manifest; null for the first commit of a new archive
   * @param baseDictionaries loads the dictionaries {@code base} lists (those that move are
   *     rewritten into the new segment file)
   * @param firstDictionary a new archive's dictionary, or null; ignored unless {@code base} is null
   * @param bucketCapacity the most records of a bucket of the new segment
   * @param settings the writer settings the next manifest records
   */
  public ManifestEdit(
      Storage storage,
      Manifest base,
      DictionarySource baseDictionaries,
      Dictionary firstDictionary,
      int bucketCapacity,
      ArchiveSettings settings) {
    this.storage = storage;
    this.base = base;
    this.baseDictionaries = baseDictionaries;
    this.firstDictionary = firstDictionary;
    this.bucketCapacity = bucketCapacity;
    this.settings = settings;
  }

  /**
   * Writes a segment of {@code rows} and returns the next manifest: the segment at index {@code at}
   * of {@code kept} (the segments that stay, oldest first), naming {@code parts}.
   *
   * @param liveEntries entries a reader of the next generation sees
   * @param liveBytes bytes those entries take in part files
   * @param operation what the commit did, for {@code hpf log}
   */
  public Manifest withSegment(
      SortedRows rows,
      List<Generation.Part> parts,
      List<Manifest.SegmentRef> kept,
      int at,
      long liveEntries,
      long liveBytes,
      String operation)
      throws IOException {
    Set<Integer> keptIds = new HashSet<>();
    kept.forEach(s -> keptIds.add(s.segmentId()));
    List<Manifest.DictionaryRef> current = base == null ? List.of() : base.dictionaries();
    List<Dictionary> moving = new ArrayList<>();
    // A compaction (some segment dropped) also moves the own files of older versions' dictionaries.
    boolean dropsSegments = base != null && kept.size() < base.segments().size();
    for (Manifest.DictionaryRef d : current) {
      if (d.inSegmentFile() ? !keptIds.contains(d.segmentId()) : dropsSegments) {
        moving.add(baseDictionaries.dictionary(d.dictionaryId()));
      }
    }
    if (base == null && firstDictionary != null) {
      moving.add(firstDictionary);
    }
    int segmentId = (base == null ? 0 : base.segmentIdMark()) + 1;
    SegmentBuilder.Written written =
        SegmentBuilder.write(storage, segmentId, rows, bucketCapacity, moving);
    Map<Integer, Manifest.DictionaryRef> moved = new HashMap<>();
    written.dictionaries().forEach(d -> moved.put(d.dictionaryId(), d));
    List<Manifest.DictionaryRef> dictionaries = new ArrayList<>();
    for (Manifest.DictionaryRef d : current) {
      dictionaries.add(moved.getOrDefault(d.dictionaryId(), d)); // oldest first, newest last
    }
    if (base == null) {
      dictionaries.addAll(written.dictionaries());
    }
    List<Manifest.SegmentRef> segments = new ArrayList<>(kept);
    segments.add(at, written.segment());
    return next(parts, segments, dictionaries, liveEntries, liveBytes, operation);
  }

  /** The manifest after {@code base}: the next generation, its history, this edit's settings. */
  private Manifest next(
      List<Generation.Part> parts,
      List<Manifest.SegmentRef> segments,
      List<Manifest.DictionaryRef> dictionaries,
      long liveEntries,
      long liveBytes,
      String operation) {
    long generation = (base == null ? 0 : base.generation()) + 1;
    long now = System.currentTimeMillis();
    Generation.Change entry = new Generation.Change(generation, now, operation, liveEntries);
    List<Generation.Change> history = base == null ? List.of(entry) : base.historyWith(entry);
    return new Manifest(
        generation,
        now,
        operation,
        bucketCapacity,
        settings,
        liveEntries,
        liveBytes,
        dictionaries,
        parts,
        segments,
        history,
        marks(parts, segments));
  }

  /** Ids only grow: the base's marks, raised to the ids the next manifest names. */
  private Manifest.IdMarks marks(List<Generation.Part> parts, List<Manifest.SegmentRef> segments) {
    int partMark = base == null ? 0 : base.partIdMark();
    int segmentMark = base == null ? 0 : base.segmentIdMark();
    for (Generation.Part p : parts) {
      partMark = Math.max(partMark, p.partId());
    }
    for (Manifest.SegmentRef s : segments) {
      segmentMark = Math.max(segmentMark, s.segmentId());
    }
    return new Manifest.IdMarks(partMark, segmentMark);
  }
}
