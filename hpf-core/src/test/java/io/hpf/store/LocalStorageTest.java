package io.hpf.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.store.Storage.FileUse;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStorageTest {
  @TempDir Path temp;

  @Test
  void mappedAndPositionalReadsAgreeIncludingBytesAppendedAfterOpening() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("s"));
    byte[] first = new byte[100_000];
    for (int i = 0; i < first.length; i++) {
      first[i] = (byte) (i * 31);
    }
    try (AppendableFile out = storage.create("f", FileUse.ONCE)) {
      out.write(first, 0, 10);
      out.write(first, 10, first.length - 10); // larger than the write buffer
      assertEquals(first.length, out.position());
      out.sync();
    }
    for (LocalStorage s : List.of(storage, storage.withPositionalReads())) {
      try (ReadableFile in = s.openRead("f", FileUse.ONCE)) {
        Files.write(temp.resolve("s/f"), new byte[] {7, 8}, StandardOpenOption.APPEND);
        assertEquals(first.length + 2L, in.length());
        assertArrayEquals(
            java.util.Arrays.copyOfRange(first, 99_990, 100_000), in.readFully(99_990, 10));
        // Across the end of what was mapped at open: the rest comes from the channel.
        byte[] tail = in.readFully(99_998, 4);
        assertArrayEquals(new byte[] {first[99_998], first[99_999], 7, 8}, tail);
        EOFException e = assertThrows(EOFException.class, () -> in.readFully(100_000, 10));
        assertTrue(e.getMessage().contains(temp.resolve("s/f").toString()), e.getMessage());
      }
      Files.write(temp.resolve("s/f"), first); // back to the original for the next mode
    }
  }

  /**
   * Writes of several writeback intervals, closed mid-writeback or synced, read back exactly: the
   * background writebacks only make pages durable earlier, and a close racing one is no failure.
   */
  @Test
  void filesWrittenDuringBackgroundWritebacksReadBackExactly() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("w"));
    byte[] chunk = new byte[(1 << 20) + 17]; // not a multiple of the write buffer
    java.util.SplittableRandom random = new java.util.SplittableRandom(5);
    int chunks = (int) (3 * LocalAppendableFile.WRITEBACK_BYTES / chunk.length) + 1;
    java.security.MessageDigest written = java.security.MessageDigest.getInstance("SHA-256");
    for (String name : List.of("synced", "closed")) {
      written.reset();
      try (AppendableFile out = storage.create(name, FileUse.ONCE)) {
        for (int c = 0; c < chunks; c++) {
          for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) random.nextInt();
          }
          out.write(chunk, 0, 100); // through the buffer
          out.write(chunk, 100, chunk.length - 100); // around it
          written.update(chunk);
        }
        if (name.equals("synced")) {
          out.sync();
        }
      }
      java.security.MessageDigest read = java.security.MessageDigest.getInstance("SHA-256");
      read.update(Files.readAllBytes(temp.resolve("w").resolve(name)));
      assertArrayEquals(written.digest(), read.digest(), name);
      assertEquals((long) chunks * chunk.length, Files.size(temp.resolve("w").resolve(name)));
    }
  }

  @Test
  void createNeverOverwritesAndRenameIsAtomicAndExclusive() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("r"));
    try (AppendableFile out = storage.create("a", FileUse.ONCE)) {
      out.write(new byte[] {1});
    }
    assertThrows(FileAlreadyExistsException.class, () -> storage.create("a", FileUse.ONCE));
    try (AppendableFile out = storage.create("b", FileUse.ONCE)) {
      out.write(new byte[] {2});
    }
    assertThrows(FileAlreadyExistsException.class, () -> storage.rename("a", "b"));
    storage.rename("a", "c");
    assertEquals(2, storage.list().size());
    storage.delete("c");
    storage.delete("c"); // deleting a missing file is fine
    assertThrows(FileNotFoundException.class, () -> storage.openRead("c", FileUse.ONCE));
    assertThrows(IllegalArgumentException.class, () -> storage.openRead("../escape", FileUse.ONCE));
  }

  /** The storage contract on local disk, read through memory mappings. */
  @org.junit.jupiter.api.Nested
  class MappedContract extends io.hpf.testing.StorageContractSuite {
    @Override
    protected Storage newStorage(String name) throws Exception {
      return LocalStorage.createDirectories(temp.resolve("mapped-" + name));
    }
  }

  /** The storage contract on local disk, read with one system call per read. */
  @org.junit.jupiter.api.Nested
  class PositionalContract extends io.hpf.testing.StorageContractSuite {
    @Override
    protected Storage newStorage(String name) throws Exception {
      return LocalStorage.createDirectories(temp.resolve("pread-" + name)).withPositionalReads();
    }
  }
}
