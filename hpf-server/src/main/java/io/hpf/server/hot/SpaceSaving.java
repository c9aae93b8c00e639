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

  /** A counter: its key, count, overestimate and place in the heap. */
  private static final class Node {
    final String key;
    long count;
    long error;
    int slot;

    Node(String key, long count, long error, int slot) {
      this.key = key;
      this.count = count;
      this.error = error;
      this.slot = slot;
    }
  }

  /** Key to counter; the counters form a min-heap by count, each knowing its slot. */
  private final Map<String, Node> nodes = new HashMap<>();

  private final Node[] heap;
  private int size;
  private long offered;

  public SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.heap = new Node[capacity];
  }

  /** Counts one occurrence of {@code key}. */
  public void offer(String key) {
    offered++;
    Node node = nodes.get(key);
    if (node != null) {
      node.count++;
      siftDown(node.slot);
      return;
    }
    if (size < heap.length) {
      node = new Node(key, 1, 0, size);
      heap[size] = node;
      nodes.put(key, node);
      siftUp(size++);
      return;
    }
    // Replace the least counted key (the heap's root): the newcomer may have been it all along.
    Node least = heap[0];
    nodes.remove(least.key);
    node = new Node(key, least.count + 1, least.count, 0);
    heap[0] = node;
    nodes.put(key, node);
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
    return size < heap.length ? 0 : heap[0].count;
  }

  /** The monitored keys with their counts, in no particular order. */
  public List<Counter> counters() {
    List<Counter> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      out.add(new Counter(heap[i].key, heap[i].count, heap[i].error));
    }
    return out;
  }

  private void siftUp(int i) {
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (heap[parent].count <= heap[i].count) {
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
      int smaller = left + 1 < size && heap[left + 1].count < heap[left].count ? left + 1 : left;
      if (heap[i].count <= heap[smaller].count) {
        return;
      }
      swap(i, smaller);
      i = smaller;
    }
  }

  private void swap(int a, int b) {
    Node n = heap[a];
    heap[a] = heap[b];
    heap[b] = n;
    heap[a].slot = a;
    heap[b].slot = b;
  }
}
