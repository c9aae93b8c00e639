package io.hpf.internal.sort;

import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A k-way merge of sources each in {@code order}: the least head first; of equal heads, the one of
 * the source listed first, so that a merge of sorted runs is a stable sort. Not thread-safe.
 */
public final class Merge<T> {
  /** Items in order, one at a time. */
  public interface Source<T> {
    /** The next item, or null after the last. */
    T next() throws IOException;
  }

  private record Head<T>(T item, int source) {}

  private final List<? extends Source<T>> sources;
  private final PriorityQueue<Head<T>> heads;

  public Merge(List<? extends Source<T>> sources, Comparator<? super T> order) throws IOException {
    this.sources = sources;
    this.heads =
        new PriorityQueue<>(
            Math.max(1, sources.size()),
            (a, b) -> {
              int c = order.compare(a.item, b.item);
              return c != 0 ? c : Integer.compare(a.source, b.source);
            });
    for (int i = 0; i < sources.size(); i++) {
      advance(i);
    }
  }

  private void advance(int source) throws IOException {
    T item = sources.get(source).next();
    if (item != null) {
      heads.add(new Head<>(item, source));
    }
  }

  /** The next item of all the sources, or null after the last. */
  public T next() throws IOException {
    Head<T> head = heads.poll();
    if (head == null) {
      return null;
    }
    advance(head.source);
    return head.item;
  }
}
