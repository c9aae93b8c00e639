package io.hpf.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpf.testing.CountingMemoryFile;
import java.io.EOFException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Cached pages give the file's exact bytes, read each page once, and respect the budget. */
class PageCachedFileTest {
  @Test
  void randomReadsMatchTheFileAndEachPageIsReadOnce() throws Exception {
    byte[] content = new byte[5 * PageCachedFile.PAGE_BYTES + 1234];
    new SplittableRandom(1).nextBytes(content);
    CountingMemoryFile file = new CountingMemoryFile(content);
    AtomicLong budget = new AtomicLong(1L << 30);
    PageCachedFile cached = new PageCachedFile(file, budget);
    SplittableRandom random = new SplittableRandom(2);
    for (int i = 0; i < 2000; i++) {
      int at = random.nextInt(content.length);
      int length = random.nextInt(Math.min(content.length - at, 3 * PageCachedFile.PAGE_BYTES) + 1);
      byte[] got = cached.readFully(at, length);
      assertArrayEquals(Arrays.copyOfRange(content, at, at + length), got, "at " + at);
    }
    assertEquals(6, file.reads(), "six pages, each read once");
    assertEquals((1L << 30) - content.length, budget.get());
    assertThrows(EOFException.class, () -> cached.readFully(content.length - 1, 2));
    cached.close();
    assertEquals(1L << 30, budget.get(), "closing gives the pages back");
  }

  @Test
  void overBudgetReadsGoStraightThrough() throws Exception {
    byte[] content = new byte[3 * PageCachedFile.PAGE_BYTES];
    new SplittableRandom(3).nextBytes(content);
    CountingMemoryFile file = new CountingMemoryFile(content);
    PageCachedFile cached = new PageCachedFile(file, new AtomicLong(PageCachedFile.PAGE_BYTES));
    for (int round = 0; round < 3; round++) {
      assertArrayEquals(Arrays.copyOfRange(content, 10, 20), cached.readFully(10, 10));
      int far = 2 * PageCachedFile.PAGE_BYTES + 5;
      assertArrayEquals(Arrays.copyOfRange(content, far, far + 7), cached.readFully(far, 7));
    }
    assertEquals(1 + 3, file.reads(), "the first page cached; the last one read every time");
  }
}
