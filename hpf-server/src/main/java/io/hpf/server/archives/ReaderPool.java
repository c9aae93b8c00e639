package io.hpf.server.archives;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.LiveArchive;
import io.hpf.archive.model.Generation;
import io.hpf.server.ServerLog;
import io.hpf.server.hot.SlidingTopK;
import io.hpf.server.metrics.ServerMetrics;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The open archive readers, kept by popularity within a memory budget (TýrFS keeps the metadata
 * that is asked for most where it is asked for). Every request is counted in a sliding-window top-k
 * of archives; when the readers' index memory passes the budget, readers of archives outside the
 * top are closed first, least recently used first, then the least popular of the top. Readers of
 * archives outside the top that sit idle are closed too; any closed archive is opened again on its
 * next request (a miss).
 *
 * <p>Each open archive is a {@link LiveArchive}: {@link #refreshAll} swaps in a newer generation
 * and the old one closes when its last request ends, so a request never sees its snapshot change
 * and no request after a refresh sees a deleted entry.
 *
 * <p>Thread-safe.
 */
public final class ReaderPool implements Closeable {
  /** Memory counted per open reader beyond its index: open files, buffers, the reader itself. */
  static final long READER_OVERHEAD_BYTES = 64 * 1024;

  private final ArchiveDirectory directory;
  private final ServerMetrics metrics;
  private final SlidingTopK hotArchives;
  private final int hotK;
  private final long budgetBytes;
  private final long idleNanos;
  private final LongSupplier clock;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Object> openLocks = new ConcurrentHashMap<>();
  private final long replicateMin;
  private volatile Set<String> hotSet = Set.of();
  private volatile Set<String> replicated = Set.of();
  private volatile List<String> ranking = List.of();
  private volatile long hotSetAt;
  private volatile java.util.function.Predicate<String> writtenHere = id -> false;

  /** An open archive. */
  private static final class Slot {
    final String id;
    final LiveArchive live;
    volatile long lastUsed;
    volatile long memory;

    Slot(String id, LiveArchive live, long now) {
      this.id = id;
      this.live = live;
      this.lastUsed = now;
      this.memory = memoryOf(live.peek());
    }
  }

  /** A request's hold on one generation of an archive; closing it gives the hold back. */
  public record Lease(String archive, ArchiveSnapshot snapshot) implements AutoCloseable {
    public ArchiveReader reader() {
      return snapshot.reader();
    }

    @Override
    public void close() {
      try {
        snapshot.release();
      } catch (IOException e) {
        ServerLog.warn("closing a reader of '" + archive + "': " + e.getMessage());
      }
    }
  }

  /**
   * @param hotArchives the popularity counts of archives (offered by the request handlers)
   * @param hotK how many of the most requested archives are kept open first
   * @param budgetBytes index memory the open readers may hold (Long.MAX_VALUE: no limit)
   * @param idleNanos readers outside the top idle this long are closed
   * @param replicateMin requests in the window that make a hot archive served here even when
   *     another server of a ring owns it
   */
  public ReaderPool(
      ArchiveDirectory directory,
      ServerMetrics metrics,
      SlidingTopK hotArchives,
      int hotK,
      long budgetBytes,
      long idleNanos,
      long replicateMin,
      LongSupplier clock) {
    this.directory = directory;
    this.metrics = metrics;
    this.hotArchives = hotArchives;
    this.hotK = hotK;
    this.budgetBytes = budgetBytes;
    this.idleNanos = idleNanos;
    this.replicateMin = replicateMin;
    this.clock = clock;
    this.hotSetAt = clock.getAsLong() - 1_000_000_000L; // stale: computed on first use
    metrics.gauge("hpf_open_readers", "Archive readers open now.", slots::size);
    metrics.gauge("hpf_index_memory_bytes", "Memory counted for open readers.", this::memory);
    metrics.gauge("hpf_memory_budget_bytes", "The readers' memory budget.", () -> budgetBytes);
  }

  /** What an open reader counts against the budget; its index grows as buckets are loaded. */
  static long memoryOf(ArchiveReader reader) {
    return reader.indexMemoryBytes() + READER_OVERHEAD_BYTES;
  }

  /** A lease on an archive that is open now, without blocking; null if it is not open. */
  public Lease tryAcquire(String id) {
    Slot slot = slots.get(id);
    if (slot == null) {
      return null;
    }
    ArchiveSnapshot snapshot = slot.live.tryAcquire();
    if (snapshot == null) {
      return null; // evicted this instant: the slow path looks again
    }
    slot.lastUsed = clock.getAsLong();
    metrics.readerHits.increment();
    return new Lease(id, snapshot);
  }

  /** A lease on an archive, opening it if needed (blocking: storage reads). */
  public Lease acquire(String id) throws IOException {
    Lease lease = tryAcquire(id);
    if (lease != null) {
      return lease;
    }
    Object lock = openLocks.computeIfAbsent(id, k -> new Object());
    synchronized (lock) {
      lease = tryAcquire(id);
      if (lease != null) {
        return lease;
      }
      String location = directory.location(id);
      if (location == null) {
        throw new FileNotFoundException("no archive '" + id + "'");
      }
      Storage storage = directory.root().open(location);
      // Alone: this pool decides which readers stay open within its memory budget.
      LiveArchive live = new LiveArchive(id, ArchiveReader.openAlone(storage));
      ArchiveSnapshot snapshot = live.tryAcquire();
      slots.put(id, new Slot(id, live, clock.getAsLong()));
      metrics.readerMisses.increment();
      lease = new Lease(id, snapshot);
    }
    enforceBudget();
    return lease;
  }

  /** True if the archive's reader is open now. */
  public boolean isOpen(String id) {
    return slots.containsKey(id);
  }

  /**
   * True if the archive is hot here and surely asked for at least the replication minimum in the
   * window (its count less the count's possible error): a server of a ring serves such an archive
   * itself even when another server owns it (TýrFS replicates hot metadata where it is asked for).
   */
  public boolean isReplicated(String id) {
    hotSet();
    return replicated.contains(id);
  }

  /** Memory counted for the open readers now. */
  public long memory() {
    long sum = 0;
    for (Slot s : slots.values()) {
      sum += s.memory;
    }
    return sum;
  }

  /**
   * Looks for a newer generation of every open archive (one directory listing each) and swaps it
   * in. An archive that disappeared is closed; a failure is logged and the old snapshot kept.
   */
  public void refreshAll() {
    for (Slot slot : new ArrayList<>(slots.values())) {
      if (!writtenHere.test(slot.id)) {
        refresh(slot, null);
      }
    }
  }

  /**
   * The archives this server writes now, which its writer refreshes at each commit ({@link
   * #refresh(String, Generation)}): the periodic refresh, a listing each, leaves them alone.
   */
  public void writtenHere(java.util.function.Predicate<String> archives) {
    writtenHere = archives;
  }

  /**
   * Makes requests from now on read at least {@code committed}, a generation this server's writer
   * just committed to an open archive (an archive not open is opened when next asked for).
   */
  public void refresh(String id, Generation committed) {
    Slot slot = slots.get(id);
    if (slot != null) {
      refresh(slot, committed);
    }
  }

  /** Refreshes a slot: to {@code committed} if newer than its own, or from a listing if null. */
  private void refresh(Slot slot, Generation committed) {
    Object lock = openLocks.computeIfAbsent(slot.id, k -> new Object());
    synchronized (lock) {
      if (slots.get(slot.id) != slot) {
        return;
      }
      try {
        boolean newer = committed == null ? slot.live.refresh() : slot.live.advanceTo(committed);
        if (newer) {
          slot.memory = memoryOf(slot.live.peek());
          metrics.refreshes.increment();
        }
      } catch (FileNotFoundException e) {
        ServerLog.warn("archive '" + slot.id + "' is gone: " + e.getMessage());
        evict(slot);
      } catch (IOException | RuntimeException e) {
        ServerLog.warn("refreshing '" + slot.id + "': " + e.getMessage());
      }
    }
  }

  /** Closes readers outside the hot set that sat idle, and keeps memory within the budget. */
  public void sweep() {
    long now = clock.getAsLong();
    Set<String> hot = hotSet();
    for (Slot slot : new ArrayList<>(slots.values())) {
      slot.memory = memoryOf(slot.live.peek());
      if (!hot.contains(slot.id) && now - slot.lastUsed > idleNanos) {
        evictLocked(slot);
      }
    }
    enforceBudget();
  }

  /** Closes readers until the open ones fit the budget: cold before hot, then by last use. */
  void enforceBudget() {
    if (budgetBytes == Long.MAX_VALUE || memory() <= budgetBytes) {
      return;
    }
    hotSet();
    List<String> ranked = ranking;
    Map<String, Integer> rank = new HashMap<>();
    for (int i = 0; i < ranked.size(); i++) {
      rank.put(ranked.get(i), i);
    }
    List<Slot> victims = new ArrayList<>(slots.values());
    // Cold (unranked) first, least recently used first; then the hot from the least popular up.
    victims.sort(
        Comparator.<Slot>comparingInt(s -> -rank.getOrDefault(s.id, Integer.MAX_VALUE))
            .thenComparingLong(s -> s.lastUsed));
    long total = memory();
    for (Slot slot : victims) {
      if (total <= budgetBytes) {
        return;
      }
      if (evictLocked(slot)) {
        total -= slot.memory;
      }
    }
  }

  /** The hot set (and its ranking), recomputed at most ten times a second. */
  private Set<String> hotSet() {
    long now = clock.getAsLong();
    if (now - hotSetAt > 100_000_000L) {
      Set<String> hot = new HashSet<>();
      Set<String> often = new HashSet<>();
      List<String> ranked = new ArrayList<>();
      for (SlidingTopK.Ranked r : hotArchives.top(hotK)) {
        hot.add(r.key());
        ranked.add(r.key());
        if (r.count() - r.error() >= replicateMin) {
          often.add(r.key());
        }
      }
      ranking = ranked;
      hotSet = hot;
      replicated = often;
      hotSetAt = now;
    }
    return hotSet;
  }

  private boolean evictLocked(Slot slot) {
    Object lock = openLocks.computeIfAbsent(slot.id, k -> new Object());
    synchronized (lock) {
      if (slots.get(slot.id) != slot) {
        return false;
      }
      evict(slot);
      return true;
    }
  }

  /** REQUIRES: the slot's open lock is held. */
  private void evict(Slot slot) {
    if (slots.remove(slot.id, slot)) {
      metrics.readerEvictions.increment();
      try {
        slot.live.close(); // the reader closes now, or when the last request on it ends
      } catch (IOException e) {
        ServerLog.warn("closing '" + slot.id + "': " + e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    for (Slot slot : new ArrayList<>(slots.values())) {
      evictLocked(slot);
    }
  }
}
