package io.hpf.server.hot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The most requested keys over a sliding window: the window is cut into {@code slices} equal
 * intervals, each counted by its own {@link SpaceSaving} summary; a query merges the live slices
 * and the oldest slice is dropped as time moves on, so popularity older than the window is
 * forgotten (TýrFS keeps hot metadata chosen this way).
 *
 * <p>Bounds over the window, with N the offers of its live slices and m the capacity of each slice:
 * a merged estimate is at least the true count and at most the true count plus N / m (each slice
 * overestimates by at most its own N_i / m). Thread-safe.
 */
public final class SlidingTopK {
  private final long sliceNanos;
  private final int capacity;
  private final LongSupplier clock;
  private final SpaceSaving[] slices;
  private long currentSlice;

  /** One key of the top: its merged count and the overestimate that count may carry. */
  public record Ranked(String key, long count, long error) {}

  /**
   * @param windowNanos the window's length
   * @param slices how many intervals the window is cut into (the window moves by one at a time)
   * @param capacity counters per slice: more counters, tighter counts
   * @param clock nanoseconds, as {@link System#nanoTime}
   */
  public SlidingTopK(long windowNanos, int slices, int capacity, LongSupplier clock) {
    if (slices < 1 || windowNanos < slices) {
      throw new IllegalArgumentException("a window needs at least one slice of at least 1 ns");
    }
    this.sliceNanos = windowNanos / slices;
    this.capacity = capacity;
    this.clock = clock;
    this.slices = new SpaceSaving[slices];
    this.currentSlice = clock.getAsLong() / sliceNanos;
    for (int i = 0; i < slices; i++) {
      this.slices[i] = new SpaceSaving(capacity);
    }
  }

  /** Counts a request for {@code key} now. */
  public synchronized void offer(String key) {
    advance();
    slices[(int) (currentSlice % slices.length)].offer(key);
  }

  /** The {@code k} keys with the highest merged counts in the window, highest first. */
  public synchronized List<Ranked> top(int k) {
    advance();
    // A key a slice does not monitor may still have been offered there, up to that slice's least
    // count (when the slice is full): adding it keeps every estimate at or above the true count.
    Map<String, long[]> merged = new HashMap<>();
    long[] floors = new long[slices.length];
    long floorSum = 0;
    for (int i = 0; i < slices.length; i++) {
      floors[i] = slices[i].floor();
      floorSum += floors[i];
    }
    for (int i = 0; i < slices.length; i++) {
      for (SpaceSaving.Counter c : slices[i].counters()) {
        long[] sum = merged.computeIfAbsent(c.key(), key -> new long[] {0, 0, 0});
        sum[0] += c.count();
        sum[1] += c.error();
        sum[2] += floors[i]; // this slice's floor, counted above as the count itself
      }
    }
    for (long[] sum : merged.values()) {
      long absent = floorSum - sum[2];
      sum[0] += absent;
      sum[1] += absent;
    }
    List<Ranked> ranked = new ArrayList<>(merged.size());
    merged.forEach((key, sum) -> ranked.add(new Ranked(key, sum[0], sum[1])));
    ranked.sort((a, b) -> Long.compare(b.count(), a.count()));
    return ranked.subList(0, Math.min(k, ranked.size()));
  }

  /** Offers counted by the live slices of the window (N). */
  public synchronized long offeredInWindow() {
    advance();
    long n = 0;
    for (SpaceSaving slice : slices) {
      n += slice.offered();
    }
    return n;
  }

  /** Drops the slices that time has left behind, oldest first. */
  private void advance() {
    long now = clock.getAsLong() / sliceNanos;
    long steps = Math.min(now - currentSlice, slices.length);
    for (long i = 1; i <= steps; i++) {
      slices[(int) ((currentSlice + i) % slices.length)] = new SpaceSaving(capacity);
    }
    if (now > currentSlice) {
      currentSlice = now;
    }
  }
}
