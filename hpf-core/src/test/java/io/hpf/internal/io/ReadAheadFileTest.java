package io.hpf.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpf.testing.CountingMemoryFile;
import java.io.EOFException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Forward reads come from one window per refill, with the file's exact bytes. */
class ReadAheadFileTest {
  @Test
  void forwardReadsAreServedFromWindowsAndMatchTheFile() throws Exception {
    byte[] content = new byte[3 * ReadAheadFile.WINDOW_BYTES + 12345];
    new SplittableRandom(1).nextBytes(content);
    CountingMemoryFile file = new CountingMemoryFile(content);
    ReadAheadFile ahead = new ReadAheadFile(file);
    SplittableRandom random = new SplittableRandom(2);
    long at = 0;
    int entries = 0;
    while (true) {
      int length = 1 + random.nextInt(20_000);
      if (at + length > content.length) {
        break;
      }
      assertArrayEquals(
          Arrays.copyOfRange(content, (int) at, (int) at + length), ahead.readFully(at, length));
      at += length + random.nextInt(100); // gaps, as padding and dead entries leave
      entries++;
    }
    assertEquals(4, file.reads(), entries + " forward reads, one refill per window");
    // A read larger than the window goes straight through; a read past the end is the file's
    // own error.
    byte[] big = ahead.readFully(0, ReadAheadFile.WINDOW_BYTES + 1);
    assertArrayEquals(Arrays.copyOf(content, ReadAheadFile.WINDOW_BYTES + 1), big);
    assertThrows(EOFException.class, () -> ahead.readFully(content.length - 1, 2));
  }
}
