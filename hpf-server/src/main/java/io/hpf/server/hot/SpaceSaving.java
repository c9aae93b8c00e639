package io.hpf.server.hot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Space-Saving summary of Metwally, Agrawal and El Abbadi ("Efficient computation of frequent
 * and top-k elements in data streams", 2005): the most frequent keys of a stream in {@code
 * capacity} counters. A key that has a counter is counted; a new key takes over the counter of the
 * least counted key and inherits its count as its possible overestimate.
 *
 * <p>Guarantees, with N the number of keys offered: a counted key's estimate is at least its true
 * count and at most its true count plus {@code N / capacity}; every key seen more than {@code N /
 * capacity} times has a counter. Counters live in a min-heap, so an offer costs O(log capacity).
 *
 * <p>Not thread-safe: {@link SlidingTopK} serializes access.
 */
public final class SpaceSaving {
  /** One monitored key: its estimated count and the overestimate it may carry. */
  public record Counter(String key, long count, long error) {}

  private final int capacity;
  private final Map<String, Integer> slotOf = new HashMap<>();
  private final String[] keys;
  private final long[] counts;
  private final long[] errors;
  private int size;
  private long offered;

  public SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
    this.keys = new String[capacity];
    this.counts = new long[capacity];
    this.errors = new long[capacity];
  }

  /** Counts one occurrence of {@code key}. */
  public void offer(String key) {
    offered++;
    Integer slot = slotOf.get(key);
    if (slot != null) {
      counts[slot]++;
      siftDown(slot);
      return;
    }
    if (size < capacity) {
      keys[size] = key;
      counts[size] = 1;
      errors[size] = 0;
      slotOf.put(key, size);
      siftUp(size++);
      return;
    }
    // Replace the least counted key (the heap's root): the newcomer may have been it all along.
    slotOf.remove(keys[0]);
    long min = counts[0];
    keys[0] = key;
    errors[0] = min;
    counts[0] = min + 1;
    slotOf.put(key, 0);
    siftDown(0);
  }

  /** Keys offered so far (N). */
  public long offered() {
    return offered;
  }

  /**
   * The least count when every counter is taken, else 0: an unmonitored key was offered at most
   * this many times.
   */
  public long floor() {
    return size < capacity ? 0 : counts[0];
  }

  public int capacity() {
    return capacity;
  }

  /** The monitored keys with their counts, in no particular order. */
  public List<Counter> counters() {
    List<Counter> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(new Counter(keys[i], counts[i], errors[i]));
    }
    return out;
  }

  private void siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (counts[parent] <= counts[i]) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void siftDown(int i) {
    while (true) {
      int left = 2 * i + 1;
      if (left >= size) {
        return;
      }
      int smaller = left + 1 < size && counts[left + 1] < counts[left] ? left + 1 : left;
      if (counts[i] <= counts[smaller]) {
        return;
      }
      swap(i, smaller);
      i = smaller;
    }
  }

  private void swap(int a, int b) {
    String k = keys[a];
    keys[a] = keys[b];
    keys[b] = k;
    long c = counts[a];
    counts[a] = counts[b];
    counts[b] = c;
    long e = errors[a];
    errors[a] = errors[b];
    errors[b] = e;
    slotOf.put(keys[a], a);
    slotOf.put(keys[b], b);
  }
}
