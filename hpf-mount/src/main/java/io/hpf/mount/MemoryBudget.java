package io.hpf.mount;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes open files may keep of their content ({@code --memory}). Past it, content that would be
 * kept whole is streamed instead: slower for a program that reads a small file in many pieces,
 * never more memory.
 */
final class MemoryBudget {
  private final long limit;
  private final AtomicLong used = new AtomicLong();

  MemoryBudget(long limit) {
    this.limit = limit;
  }

  /** Reserves {@code bytes} if they fit; false if not. */
  boolean take(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > limit) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  void give(long bytes) {
    used.addAndGet(-bytes);
  }

  long used() {
    return used.get();
  }
}
