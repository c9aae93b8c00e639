package io.hpf.internal.sort;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.CorruptArchiveException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records sorted through runs on disk, against a sort in memory; damaged runs are found. */
class RecordSorterTest {
  @TempDir Path temp;

  /** A record: a 2-byte key (few values, so many ties), then its serial, then some bytes. */
  private static byte[] record(SplittableRandom random, int serial) {
    byte[] r = new byte[6 + random.nextInt(40)];
    r[0] = (byte) random.nextInt(4);
    r[1] = (byte) random.nextInt(256);
    r[2] = (byte) (serial >>> 24);
    r[3] = (byte) (serial >>> 16);
    r[4] = (byte) (serial >>> 8);
    r[5] = (byte) serial;
    return r;
  }

  @Test
  void recordsComeOutInOrderTiesInTheOrderAdded() throws Exception {
    SplittableRandom random = new SplittableRandom(5);
    List<byte[]> added = new ArrayList<>();
    Comparator<byte[]> byKey = RecordSorter.byPrefix(2);
    try (RecordSorter sorter = new RecordSorter(byKey, 8 << 10, temp)) {
      for (int i = 0; i < 20_000; i++) {
        byte[] r = record(random, i);
        added.add(r);
        sorter.add(r);
      }
      assertTrue(sorter.runCount() > 50, sorter.runCount() + " runs");
      List<byte[]> expected = new ArrayList<>(added);
      expected.sort(byKey); // stable: ties keep the order added
      RecordSorter.Cursor sorted = sorter.sorted();
      for (byte[] e : expected) {
        assertArrayEquals(e, sorted.next());
      }
      assertNull(sorted.next());
    }
    try (var left = Files.list(temp)) {
      assertFalse(left.findAny().isPresent(), "closing deletes the runs");
    }
  }

  @Test
  void aDamagedRunIsReportedNotRead() throws Exception {
    SplittableRandom random = new SplittableRandom(6);
    try (RecordSorter sorter = new RecordSorter(RecordSorter.byPrefix(2), 4 << 10, temp)) {
      for (int i = 0; i < 500; i++) {
        sorter.add(record(random, i));
      }
      Path run;
      try (var dirs = Files.list(temp)) {
        run = dirs.findFirst().orElseThrow().resolve("run-0");
      }
      byte[] bytes = Files.readAllBytes(run);
      bytes[bytes.length / 2] ^= 1;
      Files.write(run, bytes);
      CorruptArchiveException e =
          assertThrows(
              CorruptArchiveException.class,
              () -> {
                RecordSorter.Cursor sorted = sorter.sorted();
                while (sorted.next() != null) {
                  // read to the damage
                }
              });
      assertTrue(e.getMessage().contains("run-0"), e.getMessage());
      assertEquals(true, e.getMessage().contains("CRC"), e.getMessage());
    }
  }
}
