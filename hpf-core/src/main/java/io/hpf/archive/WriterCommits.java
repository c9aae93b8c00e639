package io.hpf.archive;

import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.DictionarySource;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.maintenance.FileCleaner;
import io.hpf.internal.maintenance.SupersededFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.write.CommitPlan;
import io.hpf.internal.write.ManifestEdit;
import io.hpf.internal.write.PartPool;
import io.hpf.internal.write.PartWriter;
import io.hpf.internal.write.PlanCheck;
import io.hpf.internal.write.SegmentBuilder;
import io.hpf.internal.write.SortedRows;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * A writer's view of its archive between commits: the committed base, a reader of it, and the pool
 * of part files the next commit's entries go to; and the one way to commit, a new segment and a
 * manifest naming it ({@link ManifestEdit}, then the rename of {@link ManifestStore#commit}).
 *
 * <p>Invariants: {@code snapshot} reads {@code base} (both null before a new archive's first
 * commit); every part id the pool hands out is above every id a committed manifest has named, so
 * ids only grow. Not thread-safe: {@link ArchiveWriter} calls it only from its commit methods, the
 * pool excepted.
 */
final class WriterCommits implements Closeable {
  private final Storage storage;
  private final WriterOptions options;
  private final Dictionary dictionary;
  private Manifest base;
  private ArchiveReader snapshot;

  /** {@code snapshot}, counted for readers beside the writer ({@link #shared}); null with it. */
  private volatile ArchiveSnapshot held;

  private PartPool pool;

  /** How files are cleaned after a commit: null for a listing each time ({@link FileCleaner}). */
  private SupersededFiles superseded;

  /** Part files' lengths as listed when the writer opened (no writer has written them since). */
  private final Map<Integer, Long> listedPartLengths = new HashMap<>();

  WriterCommits(
      Storage storage, WriterOptions options, Dictionary dictionary, Manifest base, int firstPartId)
      throws IOException {
    this.storage = storage;
    this.options = options;
    this.dictionary = dictionary;
    this.base = base;
    this.snapshot = base == null ? null : new ArchiveReader(storage, base);
    this.held = snapshot == null ? null : new ArchiveSnapshot(snapshot);
    this.pool = new PartPool(storage, options, dictionary, firstPartId);
  }

  /**
   * Remembers the part files' lengths of the listing the writer opened on (see {@link #tailBytes}).
   */
  void listed(List<Storage.StoredFile> listing) {
    for (Storage.StoredFile f : listing) {
      int partId = io.hpf.internal.format.FileNames.partIdOf(f.name());
      if (partId >= 0) {
        listedPartLengths.put(partId, f.lengthBytes());
      }
    }
  }

  /**
   * Bytes of the base's part files past their committed lengths: tails that writers killed before
   * their commit left (recovery keeps a dead writer's good entries and commits its part up to
   * them). No reader sees them and nothing else frees them: garbage a reclaim frees with the rest.
   */
  long tailBytes() {
    long tails = 0;
    if (base != null) {
      for (Generation.Part p : base.parts()) {
        Long listed = listedPartLengths.get(p.partId());
        if (listed != null && listed > p.committedLength()) {
          tails += listed - p.committedLength();
        }
      }
    }
    return tails;
  }

  /** The last committed manifest, or null before the first commit of a new archive. */
  Manifest base() {
    return base;
  }

  /** A reader of {@link #base}, or null with it. */
  ArchiveReader snapshot() {
    return snapshot;
  }

  /**
   * The last commit's snapshot, held for a reader beside the writer (which releases it): it stays
   * open, whatever commits follow, until released.
   */
  ArchiveSnapshot shared() throws IOException {
    while (true) {
      ArchiveSnapshot s = held;
      if (s == null) {
        throw new IOException(storage + ": nothing committed yet");
      }
      if (s.acquire()) {
        return s;
      }
      if (s == held) {
        throw new IOException(storage + ": the writer is closed");
      }
    }
  }

  PartPool pool() {
    return pool;
  }

  Dictionary dictionary() {
    return dictionary;
  }

  /** What a commit plan asks of the last commit: the snapshot of the base. */
  CommitPlan.Lookup lastCommit() {
    ArchiveReader last = snapshot;
    if (last == null) {
      return CommitPlan.Lookup.NONE;
    }
    return new CommitPlan.Lookup() {
      @Override
      public EntryInfo stat(String name) throws IOException {
        return last.stat(name);
      }

      @Override
      public Iterator<EntryInfo> list(String prefix) throws IOException {
        return last.list(prefix);
      }
    };
  }

  /**
   * Plans a commit of {@code added} and {@code deletes} ({@link CommitPlan}) and commits it, after
   * the base's parts and segments; returns the new manifest, or null if there is nothing to commit.
   * A refused commit's parts are deleted. A new archive's first commit is checked beside its
   * segment's write ({@link PlanCheck}).
   *
   * @param clashesChecked the caller checked the added names against the base already
   */
  Manifest planAndCommit(
      SortedRows added,
      List<PartWriter.Checkpoint> parts,
      Collection<String> deletes,
      boolean replace,
      boolean clashesChecked)
      throws IOException {
    Manifest last = base;
    CommitPlan.Lookup lookup = lastCommit();
    Callable<CommitPlan> planning =
        () ->
            CommitPlan.of(
                storage.toString(), added, deletes, last, lookup, replace, clashesChecked);
    CommitPlan plan;
    PlanCheck check = null;
    try {
      if (base == null && deletes.isEmpty()) {
        plan = CommitPlan.forNewArchive(added);
        check = PlanCheck.start(planning, plan);
      } else {
        plan = planning.call();
      }
    } catch (Exception refused) {
      dropRefused(parts);
      throw PlanCheck.asThrown(refused);
    }
    if (plan.rows().size() == 0 && base != null) {
      return null;
    }
    try {
      return commitSegment(
          plan.rows(),
          partsOf(parts),
          plan.liveEntries(),
          plan.liveBytes(),
          plan.operation(),
          true,
          check);
    } catch (IOException | RuntimeException e) {
      if (check != null && check.refused()) {
        dropRefused(parts);
      }
      throw e;
    }
  }

  /**
   * Writes a segment of {@code rows} and commits a manifest naming it and {@code newParts}, after
   * the base's parts and segments when {@code keepBase}, alone otherwise. The caller {@link
   * #advance}s to it. With a {@code check} (or null), the manifest is made current only once it
   * finds nothing to refuse, and its refusal is thrown otherwise (the segment written meanwhile
   * deleted).
   */
  Manifest commitSegment(
      SortedRows rows,
      List<Generation.Part> newParts,
      long liveEntries,
      long liveBytes,
      String operation,
      boolean keepBase,
      PlanCheck check)
      throws IOException {
    boolean keep = keepBase && base != null;
    List<Generation.Part> parts = new ArrayList<>();
    if (keep) {
      // A part kept open since an earlier commit is named again, with its new committed length.
      Set<Integer> grown = new HashSet<>();
      newParts.forEach(p -> grown.add(p.partId()));
      base.parts().stream().filter(p -> !grown.contains(p.partId())).forEach(parts::add);
    }
    parts.addAll(newParts);
    List<Manifest.SegmentRef> segments = new ArrayList<>(keep ? base.segments() : List.of());
    return commitNewSegment(
        rows, parts, segments, segments.size(), liveEntries, liveBytes, operation, check);
  }

  /**
   * Writes a segment of {@code rows}, puts it at index {@code at} of {@code kept} (the segments
   * that stay, oldest first), and commits the manifest naming it and {@code parts} (once {@code
   * check}, if not null, finds nothing to refuse). The caller {@link #advance}s to it.
   */
  Manifest commitNewSegment(
      SortedRows rows,
      List<Generation.Part> parts,
      List<Manifest.SegmentRef> kept,
      int at,
      long liveEntries,
      long liveBytes,
      String operation,
      PlanCheck check)
      throws IOException {
    Manifest next;
    try {
      next = edit().withSegment(rows, parts, kept, at, liveEntries, liveBytes, operation);
    } catch (IOException | RuntimeException e) {
      if (check != null) {
        check.awaitWithin(e); // names written twice, say, are the plan's to tell
      }
      throw e;
    }
    if (check != null) {
      try {
        check.await();
      } catch (IOException | RuntimeException refused) {
        storage.delete(FileNames.segmentFileName(next.segmentIdMark()));
        throw refused;
      }
    }
    ManifestStore.commit(storage, next);
    return next;
  }

  private ManifestEdit edit() {
    return new ManifestEdit(
        storage,
        base,
        snapshot == null ? DictionarySource.NONE : snapshot::dictionary,
        dictionary,
        options.bucketCapacity().orElseThrow(),
        options.settings());
  }

  /**
   * A refused commit's parts go now, or the next writer would recover them; parts a commit named
   * before keep what it named (the rest is a tail nobody reads).
   */
  void dropRefused(List<PartWriter.Checkpoint> parts) throws IOException {
    pool.abort();
    for (PartWriter.Checkpoint part : parts) {
      if (base == null || !base.namesPart(part.partId())) {
        storage.delete(FileNames.partFileName(part.partId()));
      }
    }
  }

  /**
   * The committed manifest becomes the base: a new snapshot reads it, the pool (with any parts it
   * keeps open, {@link PartPool#checkpointAll}) goes on with ids past every part committed, and
   * files no reader needs are cleaned.
   */
  void advance(Manifest next) throws IOException {
    Manifest previous = base;
    base = next;
    ArchiveSnapshot before = held;
    snapshot = new ArchiveReader(storage, next);
    held = new ArchiveSnapshot(snapshot);
    if (before != null) {
      before.release(); // after the new one is in place; closed once its readers let go
    }
    pool.skipIdsThrough(next.partIdMark());
    long now = System.currentTimeMillis();
    if (superseded == null) {
      FileCleaner.clean(storage, next, options.gracePeriodMillis(), now);
    } else if (previous != null) {
      superseded.superseded(previous, next, now);
    }
  }

  /**
   * From now on, files are cleaned as commits stop naming them ({@link SupersededFiles}) rather
   * than by a listing at each commit: for a writer that commits many times a second.
   */
  void cleanAsSuperseded() {
    superseded = new SupersededFiles(storage, options.gracePeriodMillis());
  }

  /** Finished parts' rows and committed lengths, as a commit takes them. */
  static List<PartWriter.Checkpoint> checkpoints(List<PartWriter> finished) throws IOException {
    // Each part's rows are sorted on a core of their own (one part per packing thread): sorted one
    // after the other, the rows of 1M tiny files took 0.3 s of a create's commit.
    PartWriter.Checkpoint[] done = new PartWriter.Checkpoint[finished.size()];
    List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.stream.IntStream.range(0, done.length)
        .parallel()
        .forEach(
            i -> {
              PartWriter part = finished.get(i);
              try {
                done[i] =
                    new PartWriter.Checkpoint(
                        part.partId(), part.sortedRows(), part.committedLength());
              } catch (IOException | RuntimeException e) {
                failures.add(e);
              }
            });
    if (failures.isEmpty()) {
      return List.of(done);
    }
    for (PartWriter.Checkpoint c : done) {
      if (c != null) {
        c.rows().close();
      }
    }
    if (failures.get(0) instanceof IOException io) {
      throw io;
    }
    throw (RuntimeException) failures.get(0);
  }

  /** The parts of a commit, as its manifest names them. */
  static List<Generation.Part> partsOf(List<PartWriter.Checkpoint> parts) {
    return parts.stream().map(p -> new Generation.Part(p.partId(), p.committedLength())).toList();
  }

  /**
   * The rows of a new segment made of whole parts' entries (recovered or rewritten ones), sorted by
   * name.
   */
  static SortedRows sortedRows(List<List<EntryInfo>> partsRows) {
    List<SegmentBuilder.Row> rows = new ArrayList<>();
    for (List<EntryInfo> partRows : partsRows) {
      for (EntryInfo row : partRows) {
        rows.add(SegmentBuilder.Row.of(row));
      }
    }
    SegmentBuilder.sortByName(rows);
    return SortedRows.of(rows);
  }

  /** The sorted rows of a commit's parts, merged; closing them deletes their runs. */
  static SortedRows sortedRowsOf(List<PartWriter.Checkpoint> parts) {
    return SortedRows.merge(parts.stream().map(PartWriter.Checkpoint::rows).toList());
  }

  /** Gives up what is not committed and closes the snapshot. */
  @Override
  public void close() throws IOException {
    try {
      pool.abort();
    } finally {
      if (held != null) {
        held.release();
      }
    }
  }
}
