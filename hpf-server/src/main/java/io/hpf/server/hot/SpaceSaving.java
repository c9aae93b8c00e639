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
 * capacity} times has a counter. Counters sit in the paper's stream-summary: buckets of equal count
 * in a list ordered by count, each holding its counters, so that an offer costs O(1) (a counter
 * moves to the next bucket). A heap cost O(log capacity) an offer, 20% of a small request's CPU in
 * {@code hpf serve} (docs/benchmarks/RUNS.md, issue 42).
 *
 * <p>Not thread-safe: {@link SlidingTopK} serializes access.
 */
public final class SpaceSaving {
  /** One monitored key: its estimated count and the overestimate it may carry. */
  public record Counter(String key, long count, long error) {}

  /** A counter: its key, overestimate, bucket and neighbours in the bucket. */
  private static final class Node {
    String key;
    long error;
    Bucket bucket;
    Node prev;
    Node next;
  }

  /** The counters of one count, between the buckets of the counts below and above it. */
  private static final class Bucket {
    final long count;
    Node first;
    Bucket lower;
    Bucket higher;

    Bucket(long count) {
      this.count = count;
    }
  }

  private final Map<String, Node> nodes = new HashMap<>();
  private final int capacity;
  private Bucket least; // the bucket of the least count, or null when empty
  private long offered;

  public SpaceSaving(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
  }

  /** Counts one occurrence of {@code key}. */
  public void offer(String key) {
    offered++;
    Node node = nodes.get(key);
    if (node != null) {
      moveUp(node);
      return;
    }
    if (nodes.size() < capacity) {
      node = new Node();
      node.key = key;
      nodes.put(key, node);
      Bucket one = least != null && least.count == 1 ? least : insertBelowAll(1);
      add(one, node);
      return;
    }
    // Replace a least counted key: the newcomer may have been it all along.
    node = least.first;
    nodes.remove(node.key);
    node.key = key;
    node.error = least.count;
    nodes.put(key, node);
    moveUp(node);
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
    return nodes.size() < capacity ? 0 : least.count;
  }

  /** The monitored keys with their counts, in no particular order. */
  public List<Counter> counters() {
    List<Counter> out = new ArrayList<>(nodes.size());
    for (Bucket b = least; b != null; b = b.higher) {
      for (Node n = b.first; n != null; n = n.next) {
        out.add(new Counter(n.key, b.count, n.error));
      }
    }
    return out;
  }

  /** Moves {@code node} from its bucket to the bucket of one more. */
  private void moveUp(Node node) {
    Bucket from = node.bucket;
    long count = from.count + 1;
    Bucket to = from.higher != null && from.higher.count == count ? from.higher : null;
    if (to == null) {
      to = new Bucket(count);
      to.lower = from;
      to.higher = from.higher;
      if (from.higher != null) {
        from.higher.lower = to;
      }
      from.higher = to;
    }
    remove(node);
    add(to, node);
  }

  private Bucket insertBelowAll(long count) {
    Bucket b = new Bucket(count);
    b.higher = least;
    if (least != null) {
      least.lower = b;
    }
    least = b;
    return b;
  }

  private static void add(Bucket bucket, Node node) {
    node.bucket = bucket;
    node.prev = null;
    node.next = bucket.first;
    if (bucket.first != null) {
      bucket.first.prev = node;
    }
    bucket.first = node;
  }

  /** Takes {@code node} out of its bucket, and the bucket out of the list if it is left empty. */
  private void remove(Node node) {
    Bucket b = node.bucket;
    if (node.prev != null) {
      node.prev.next = node.next;
    } else {
      b.first = node.next;
    }
    if (node.next != null) {
      node.next.prev = node.prev;
    }
    if (b.first == null) {
      if (b.lower != null) {
        b.lower.higher = b.higher;
      } else {
        least = b.higher;
      }
      if (b.higher != null) {
        b.higher.lower = b.lower;
      }
    }
  }
}
