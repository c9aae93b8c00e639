package io.hpf.hadoop.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.Damage;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code hpf://} entry stream survives errors and reads large content by chunk: a read that
 * fails hands out nothing and moves nothing, so the next read at the same position gives the right
 * bytes (a transient fault injected at every part read of a pass in turn), and a range of an LZ4
 * entry decodes only the chunks it touches (damage in chunk 0 does not fail a read of its tail).
 */
class EntryStreamFaultsTest {
  @TempDir Path dir;

  static final int SIZE = (5 << 19) + 12_345; // 2.5 MiB and some: ten chunks, the last short

  static TreeMap<String, byte[]> model() {
    TreeMap<String, byte[]> m = new TreeMap<>();
    byte[] random = new byte[SIZE];
    new java.util.SplittableRandom(9).nextBytes(random);
    m.put("random.bin", random); // stored raw, in chunks
    m.put("text.log", ArchiveModel.words(10, SIZE)); // LZ4 chunks
    return m;
  }

  @Test
  void aTransientFaultAtAnyReadLeavesTheNextReadRight() throws Exception {
    TreeMap<String, byte[]> model = model();
    TestArchives.write(
        dir.resolve("a.hpf"), model, WriterOptions.builder().codec(Codec.LZ4).build(), 1);
    for (var e : model.entrySet()) {
      int faultsSeen = 0;
      for (int k = 0; ; k++) {
        FaultyStorage storage = new FaultyStorage(LocalStorage.open(dir.resolve("a.hpf")), k);
        ArchiveSnapshot snapshot = new ArchiveSnapshot(ArchiveReader.open(storage));
        EntryInfo info = snapshot.reader().stat(e.getKey());
        assertTrue(snapshot.acquire());
        storage.failPartReadAfter(k);
        byte[] got = new byte[e.getValue().length];
        try (EntryInputStream in = new EntryInputStream(snapshot, info, null)) {
          int at = 0;
          int failed = 0;
          while (at < got.length) {
            try {
              int n = in.read(got, at, Math.min(100_000, got.length - at));
              assertTrue(n > 0);
              at += n;
            } catch (IOException fault) {
              assertTrue(fault.getMessage().contains("injected fault"), fault.getMessage());
              assertEquals(at, in.getPos(), "a failed read moved the position");
              failed++;
            }
          }
          assertEquals(-1, in.read());
          assertArrayEquals(e.getValue(), got, e.getKey() + " with a fault at part read " + k);
          faultsSeen += failed;
          if (failed == 0) {
            break; // k is past the last part read of a whole pass: every read had its fault
          }
        } finally {
          snapshot.release();
        }
      }
      assertTrue(faultsSeen > 10, e.getKey() + ": " + faultsSeen + " faults");
    }
  }

  @Test
  void aRangeOfAnLz4EntryReadsOnlyItsChunks() throws Exception {
    TreeMap<String, byte[]> model = model();
    Path archive = dir.resolve("b.hpf");
    TestArchives.write(archive, model, WriterOptions.builder().codec(Codec.LZ4).build(), 1);
    ArchiveSnapshot snapshot = new ArchiveSnapshot(ArchiveReader.open(LocalStorage.open(archive)));
    try {
      EntryInfo info = snapshot.reader().stat("text.log");
      assertEquals(Codec.LZ4, info.codec());
      // A byte of chunk 0's stored bytes, the first of the content.
      Damage.flipByte(archive, info.partId(), Damage.contentOffset(info) + 10);
      byte[] expected = model.get("text.log");
      assertTrue(snapshot.acquire());
      try (EntryInputStream in = new EntryInputStream(snapshot, info, null)) {
        byte[] tail = new byte[4096];
        in.readFully(SIZE - tail.length, tail);
        assertArrayEquals(Arrays.copyOfRange(expected, SIZE - tail.length, SIZE), tail);
        in.seek(SIZE - 20_000);
        byte[] more = new byte[20_000];
        for (int at = 0; at < more.length; ) {
          int n = in.read(more, at, more.length - at);
          assertTrue(n > 0);
          at += n;
        }
        assertArrayEquals(Arrays.copyOfRange(expected, SIZE - 20_000, SIZE), more);
        in.seek(0);
        assertThrows(IOException.class, () -> in.read(new byte[100], 0, 100));
      }
    } finally {
      snapshot.release();
    }
  }
}
