package io.hpf.archive;

import io.hpf.internal.format.CheckedEntry;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.NameHash;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.io.PrefetchedFile;
import io.hpf.internal.io.ReadAheadFile;
import io.hpf.internal.read.SegmentReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link ArchiveReader#fetchAll}: every name is placed through the index alone (its pages are in
 * memory or cached), then each part's places are visited in offset order and each run of neighbours
 * (gaps up to the file's {@link io.hpf.store.ReadableFile#coalesceBytes}, at most {@link
 * #MAX_RUN_BYTES} in all) is read with one read. Each entry is then checked exactly as a single
 * {@link ArchiveReader#fetch} checks it; a place holding another name (a 64-bit hash collision)
 * sends that name through the single lookup, which searches on.
 */
final class BatchFetch {
  /** The most bytes one read of a run takes into memory: a read-ahead window's. */
  static final int MAX_RUN_BYTES = ReadAheadFile.WINDOW_BYTES;

  /**
   * Runs read at once by one batch, when there are this many runs or they hold {@link
   * #PARALLEL_MIN_BYTES}: on HDFS each is a round trip, which threads overlap, and decoding is
   * spread over the cores (the reader is thread-safe; each run has an entry reader of its own).
   */
  static final int THREADS = 8;

  static final long PARALLEL_MIN_BYTES = 1 << 20;

  private static final ExecutorService POOL =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "hpf-batch-fetch");
            t.setDaemon(true);
            return t;
          });

  private final ArchiveReader reader;
  private final int maxWhole;
  private final long maxTotal;
  private final AtomicLong total = new AtomicLong();

  /** Where the index places a name: the newest record for it that is not a tombstone. */
  private record Place(int index, String name, byte[] nameUtf8, IndexRecord record) {
    long end() {
      return record.offset() + record.entryLength();
    }
  }

  private BatchFetch(ArchiveReader reader, int maxWhole, long maxTotal) {
    this.reader = reader;
    this.maxWhole = maxWhole;
    this.maxTotal = maxTotal;
  }

  static List<FetchedEntry> fetch(
      ArchiveReader reader, List<String> names, int maxWhole, long maxTotal) throws IOException {
    if (maxWhole < 0 || maxTotal < 0) {
      throw new IllegalArgumentException("negative limit: " + maxWhole + ", " + maxTotal);
    }
    return new BatchFetch(reader, maxWhole, maxTotal).fetch(names);
  }

  private List<FetchedEntry> fetch(List<String> names) throws IOException {
    FetchedEntry[] found = new FetchedEntry[names.size()];
    List<Place> places = new ArrayList<>(names.size());
    for (int i = 0; i < found.length; i++) {
      Place place = place(i, names.get(i));
      if (place != null) {
        places.add(place);
      }
    }
    places.sort(
        Comparator.comparingInt((Place p) -> p.record().partId())
            .thenComparingLong(p -> p.record().offset()));
    List<List<Place>> runs = new ArrayList<>();
    for (int first = 0; first < places.size(); ) {
      int partEnd = first;
      while (partEnd < places.size()
          && places.get(partEnd).record().partId() == places.get(first).record().partId()) {
        partEnd++;
      }
      addRuns(places.subList(first, partEnd), runs);
      first = partEnd;
    }
    if (runs.size() < THREADS && (runs.size() < 2 || bytes(runs) < PARALLEL_MIN_BYTES)) {
      for (List<Place> run : runs) {
        readRun(run, found);
      }
    } else {
      readInParallel(runs, found);
    }
    return Arrays.asList(found);
  }

  private static long bytes(List<List<Place>> runs) {
    long bytes = 0;
    for (List<Place> run : runs) {
      bytes += run.get(run.size() - 1).end() - run.get(0).record().offset();
    }
    return bytes;
  }

  /**
   * Reads run i, i + n, ... on thread i of n, the caller's thread being one of them, and waits for
   * every thread (none is interrupted: an interrupt would close a local file shared by the reader)
   * before reporting the first failure.
   */
  private void readInParallel(List<List<Place>> runs, FetchedEntry[] found) throws IOException {
    int threads = Math.min(THREADS, runs.size());
    List<Future<?>> others = new ArrayList<>();
    for (int t = 1; t < threads; t++) {
      int first = t;
      others.add(POOL.submit(() -> readEvery(runs, first, threads, found)));
    }
    Throwable failed = null;
    try {
      readEvery(runs, 0, threads, found);
    } catch (RuntimeException e) {
      failed = e;
    }
    boolean interrupted = false;
    for (Future<?> other : others) {
      while (true) {
        try {
          other.get();
          break;
        } catch (ExecutionException e) {
          failed = failed == null ? e.getCause() : failed;
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the others still use the reader: wait for them first
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while fetching entries");
    }
    if (failed instanceof UncheckedIOException u) {
      throw u.getCause();
    }
    if (failed instanceof RuntimeException r) {
      throw r;
    }
    if (failed != null) {
      throw new IllegalStateException(failed);
    }
  }

  private Void readEvery(List<List<Place>> runs, int first, int step, FetchedEntry[] found) {
    try {
      for (int i = first; i < runs.size(); i += step) {
        readRun(runs.get(i), found);
      }
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The name's place, or null when no entry has it (not found, deleted, or not a valid name). */
  private Place place(int index, String name) throws IOException {
    String normalized = EntryNames.lookupForm(name);
    if (normalized == null) {
      return null;
    }
    byte[] nameUtf8 = EntryNames.utf8(normalized);
    long nameHash = NameHash.of(nameUtf8);
    for (SegmentReader segment : reader.segmentsNewestFirst()) {
      IndexRecord record = segment.find(nameUtf8, nameHash);
      if (record != null) {
        return record.isTombstone() ? null : new Place(index, normalized, nameUtf8, record);
      }
    }
    return null;
  }

  /** Cuts one part's places (by offset) into the runs read together, by PrefetchedFile's rule. */
  private void addRuns(List<Place> part, List<List<Place>> runs) throws IOException {
    long[] starts = new long[part.size()];
    long[] ends = new long[part.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = part.get(i).record().offset();
      ends[i] = part.get(i).end();
    }
    long gap = reader.partFile(part.get(0).record().partId()).coalesceBytes();
    for (int first = 0; first < starts.length; ) {
      int end = PrefetchedFile.runEnd(starts, ends, first, gap, MAX_RUN_BYTES);
      runs.add(part.subList(first, end));
      first = end;
    }
  }

  private void readRun(List<Place> run, FetchedEntry[] found) throws IOException {
    int partId = run.get(0).record().partId();
    long start = run.get(0).record().offset();
    long end = run.stream().mapToLong(Place::end).max().orElseThrow();
    EntryReader part;
    if (end - start > MAX_RUN_BYTES) {
      part = reader.part(partId); // one large entry, read as a single fetch reads it
    } else {
      PrefetchedFile file = new PrefetchedFile(reader.partFile(partId));
      part = reader.entryReader(partId, file);
      file.load(start, (int) (end - start));
    }
    for (Place p : run) {
      int whole = (int) Math.max(0, Math.min(maxWhole, maxTotal - total.get()));
      IndexRecord r = p.record();
      CheckedEntry entry =
          part.findChecked(r.offset(), r.entryLength(), p.name(), p.nameUtf8(), whole, whole);
      FetchedEntry fetched =
          entry != null
              ? new FetchedEntry(entry.entry().info(partId), entry.crc32c(), entry.content())
              : reader.fetch(p.name(), whole); // another name with the same hash: search on
      found[p.index()] = withinBudget(fetched);
    }
  }

  /** The entry, without its content when that is over what is left (a group's member has it). */
  private FetchedEntry withinBudget(FetchedEntry fetched) {
    if (fetched == null || fetched.content() == null) {
      return fetched;
    }
    int length = fetched.content().length;
    for (long t = total.get(); length <= maxWhole && t + length <= maxTotal; t = total.get()) {
      if (total.compareAndSet(t, t + length)) {
        return fetched;
      }
    }
    return new FetchedEntry(fetched.info(), fetched.crc32c(), null);
  }
}
