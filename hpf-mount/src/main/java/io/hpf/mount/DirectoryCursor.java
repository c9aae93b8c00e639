package io.hpf.mount;

import java.io.IOException;
import java.util.Iterator;

/**
 * Where a listing of a directory stands (from opendir to releasedir): the children not yet handed
 * out, read as the kernel asks for more, so that a directory of a million names is listed page by
 * page and never held whole. Positions are the kernel's offsets: 1 and 2 for "." and "..", then one
 * per child; a listing asked for from another position (a seekdir, a rewind) starts again and skips
 * to it.
 *
 * @param <T> what a child is
 */
final class DirectoryCursor<T> {
  /** Children, lazily; the same ones in the same order each time it is called. */
  interface Source<T> {
    Iterator<T> open() throws IOException;
  }

  /** Takes one child at its position; false if the kernel's buffer is full (not taken). */
  interface Sink<T> {
    boolean take(T child, long position);
  }

  private final Source<T> source;
  private final T dot;
  private final T dotDot;
  private Iterator<T> children;
  private T pending;
  private long position; // of the last child taken

  /** A listing of {@code source}'s children after {@code dot} and {@code dotDot}. */
  DirectoryCursor(Source<T> source, T dot, T dotDot) {
    this.source = source;
    this.dot = dot;
    this.dotDot = dotDot;
  }

  /** Hands out children from after {@code offset} until the sink is full or the listing ends. */
  synchronized void fill(long offset, Sink<T> sink) throws IOException {
    if (children == null || offset != position) {
      children = source.open();
      pending = null;
      position = 0;
      skipTo(offset);
    }
    while (true) {
      T child = next();
      if (child == null) {
        return;
      }
      if (!sink.take(child, position + 1)) {
        pending = child;
        return;
      }
      position++;
    }
  }

  private void skipTo(long offset) {
    while (position < offset && next() != null) {
      position++;
    }
  }

  private T next() {
    if (pending != null) {
      T child = pending;
      pending = null;
      return child;
    }
    if (position < 2) {
      return position == 0 ? dot : dotDot;
    }
    return children.hasNext() ? children.next() : null;
  }
}
