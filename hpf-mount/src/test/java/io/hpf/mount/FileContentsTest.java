package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.Damage;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mount's reads of file content as the kernel asks for them (pieces of 128 KiB in order, or
 * anywhere): a failed read moves nothing, so the kernel's next read at that offset gets the right
 * bytes; a failed whole read gives its memory back; an LZ4 file is read by chunk; a read to the end
 * checks the entry's CRC32C of all its content.
 */
class FileContentsTest {
  @TempDir Path dir;

  static final int SIZE = (5 << 19) + 12_345; // ten chunks, the last one short
  static final int PIECE = 128 * 1024; // what the kernel asks for at a time

  static TreeMap<String, byte[]> model() {
    TreeMap<String, byte[]> m = new TreeMap<>();
    byte[] random = new byte[SIZE];
    new java.util.SplittableRandom(11).nextBytes(random);
    m.put("random.bin", random);
    m.put("text.log", ArchiveModel.words(12, SIZE));
    m.put("small.log", ArchiveModel.words(13, 300_000));
    return m;
  }

  Path write() throws Exception {
    Path archive = dir.resolve("a.hpf");
    TestArchives.write(archive, model(), WriterOptions.builder().codec(Codec.LZ4).build(), 1);
    return archive;
  }

  /** Reads [offset, offset + length) as the kernel would ask. */
  static byte[] read(
      FileContents contents, long node, ArchiveReader r, EntryInfo row, long offset, int length)
      throws IOException {
    ByteBuffer into = ByteBuffer.allocate(length);
    contents.read(node, r, row, offset, length, into);
    assertEquals(length, into.position(), "a read put in part of what it was asked");
    return into.array();
  }

  @Test
  void aTransientFaultAtAnyReadLeavesTheKernelsNextReadRight() throws Exception {
    Path archive = write();
    TreeMap<String, byte[]> model = model();
    for (String name : new String[] {"random.bin", "text.log"}) {
      byte[] expected = model.get(name);
      int faultsSeen = 0;
      for (int k = 0; ; k++) {
        FaultyStorage storage = new FaultyStorage(LocalStorage.open(archive), k);
        try (ArchiveReader reader = ArchiveReader.open(storage)) {
          EntryInfo row = reader.stat(name);
          FileContents contents = new FileContents(new MemoryBudget(64 << 20));
          storage.failPartReadAfter(k);
          int failed = 0;
          for (int at = 0; at < SIZE; ) {
            int n = Math.min(PIECE, SIZE - at);
            try {
              byte[] got = read(contents, 1, reader, row, at, n);
              assertArrayEquals(
                  Arrays.copyOfRange(expected, at, at + n),
                  got,
                  name + " at " + at + ", fault at read " + k);
              at += n;
            } catch (IOException fault) {
              assertTrue(fault.getMessage().contains("injected fault"), fault.getMessage());
              failed++; // the kernel answers EIO; a program reading again asks the same offset
            }
          }
          faultsSeen += failed;
          if (failed == 0) {
            break;
          }
        }
      }
      assertTrue(faultsSeen > 10, name + ": " + faultsSeen);
    }
  }

  @Test
  void aFailedWholeReadGivesItsMemoryBack() throws Exception {
    Path archive = write();
    FaultyStorage storage = new FaultyStorage(LocalStorage.open(archive), 1);
    MemoryBudget budget = new MemoryBudget(64 << 20);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      EntryInfo row = reader.stat("small.log");
      assertTrue(row.isReadWhole());
      FileContents contents = new FileContents(budget);
      storage.failPartReadAfter(0);
      assertThrows(IOException.class, () -> read(contents, 7, reader, row, 1000, 4096));
      assertEquals(0, budget.used(), "the failed read kept its reservation");
      byte[] got = read(contents, 7, reader, row, 1000, 4096);
      assertArrayEquals(Arrays.copyOfRange(model().get("small.log"), 1000, 5096), got);
      assertEquals(row.rawLength(), budget.used(), "kept whole once it read");
      contents.forget(7);
      assertEquals(0, budget.used());
    }
  }

  @Test
  void anLz4FilesTailReadsWithItsFirstChunkDamaged() throws Exception {
    Path archive = write();
    EntryInfo row;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      row = reader.stat("text.log");
    }
    assertEquals(Codec.LZ4, row.codec());
    Damage.flipByte(archive, row.partId(), Damage.contentOffset(row) + 10);
    byte[] expected = model().get("text.log");
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      FileContents contents = new FileContents(new MemoryBudget(64 << 20));
      int n = SIZE - 2 * PIECE;
      assertArrayEquals(
          Arrays.copyOfRange(expected, n, n + PIECE), read(contents, 3, reader, row, n, PIECE));
      assertThrows(IOException.class, () -> read(contents, 3, reader, row, 0, PIECE));
    }
  }

  @Test
  void aReadToTheEndChecksTheCrcOfAllTheContent() throws Exception {
    Path archive = write();
    EntryInfo row;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      row = reader.stat("random.bin");
    }
    Damage.flipByte(archive, row.partId(), Damage.trailerOffset(row) + 2); // the CRC32C of it all
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      FileContents contents = new FileContents(new MemoryBudget(64 << 20));
      int at = 0;
      while (at + PIECE < SIZE) { // every chunk holds: every piece but the last reads
        read(contents, 5, reader, row, at, PIECE);
        at += PIECE;
      }
      int last = at;
      IOException e =
          assertThrows(IOException.class, () -> read(contents, 5, reader, row, last, SIZE - last));
      assertTrue(e.getMessage().contains("random.bin"), e.getMessage());
    }
  }
}
