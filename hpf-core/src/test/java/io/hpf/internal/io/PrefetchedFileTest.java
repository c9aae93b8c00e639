package io.hpf.internal.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpf.testing.CountingMemoryFile;
import java.io.EOFException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Planned places are read a run of neighbours at a time, with the file's exact bytes. */
class PrefetchedFileTest {
  private static final int GAP = 32 << 10; // the default coalescing distance of a file

  @Test
  void eachRunOfNeighboursIsOneReadAndFarPlacesAreReadApart() throws Exception {
    byte[] content = new byte[4 << 20];
    new SplittableRandom(1).nextBytes(content);
    CountingMemoryFile file = new CountingMemoryFile(content);
    // Run 1: three places with small gaps (and two equal ones, as a group's members); run 2 after
    // a gap over the coalescing distance; a place over the run limit; then places that together
    // pass the run limit and so make two runs.
    long[] starts = {1000, 3000, 3000, 9000, 9000 + GAP + 5000, 200_000, 1_500_000, 1_800_000};
    long[] ends = {2000, 8000, 8000, 12_000, 9000 + GAP + 9000, 600_000, 1_790_000, 2_100_000};
    int maxRun = 300_000;
    PrefetchedFile planned = new PrefetchedFile(file, true, starts, ends, maxRun);
    for (int i = 0; i < starts.length; i++) {
      // A header's worth at the start, then the whole place, as an entry reader reads.
      int probe = (int) Math.min(100, ends[i] - starts[i]);
      assertArrayEquals(slice(content, starts[i], probe), planned.readFully(starts[i], probe));
      int whole = (int) (ends[i] - starts[i]);
      assertArrayEquals(slice(content, starts[i], whole), planned.readFully(starts[i], whole));
    }
    // run 1 (places 0-3), run 2 (place 4), place 5 alone from the file (two reads: probe and
    // whole), places 6 and 7 apart (they would pass the run limit together).
    assertEquals(1 + 1 + 2 + 1 + 1, file.reads());
    // A read past a loaded run's place and slack goes to the file; outside every place, too.
    int before = file.reads();
    assertArrayEquals(slice(content, 5000, 20_000), planned.readFully(5000, 20_000));
    assertArrayEquals(slice(content, 3_000_000, 10), planned.readFully(3_000_000, 10));
    assertEquals(before + 2, file.reads());
    assertThrows(EOFException.class, () -> planned.readFully(content.length - 1, 2));
  }

  @Test
  void aLoadedRangeServesReadsInsideIt() throws Exception {
    byte[] content = new byte[100_000];
    new SplittableRandom(2).nextBytes(content);
    CountingMemoryFile file = new CountingMemoryFile(content);
    PrefetchedFile prefetched = new PrefetchedFile(file);
    prefetched.load(10_000, 50_000);
    for (int at = 10_000; at + 3000 <= 60_000; at += 7_000) {
      assertArrayEquals(slice(content, at, 3000), prefetched.readFully(at, 3000));
    }
    assertEquals(1, file.reads());
    prefetched.load(95_000, 50_000); // clamped to the file's end
    assertArrayEquals(slice(content, 95_000, 5000), prefetched.readFully(95_000, 5000));
    assertEquals(2, file.reads());
  }

  private static byte[] slice(byte[] content, long from, int length) {
    return Arrays.copyOfRange(content, (int) from, (int) from + length);
  }
}
