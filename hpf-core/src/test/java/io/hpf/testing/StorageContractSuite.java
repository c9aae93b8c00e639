package io.hpf.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link Storage} itself, which every archive operation stands on: run against
 * every implementation (local disk in both read modes, HDFS). Subclasses give a fresh, empty
 * storage directory per call.
 */
public abstract class StorageContractSuite {
  protected abstract Storage newStorage(String name) throws Exception;

  private static byte[] bytes(int length, long seed) {
    byte[] b = new byte[length];
    new SplittableRandom(seed).nextBytes(b);
    return b;
  }

  private static void write(Storage storage, String name, byte[] content) throws IOException {
    try (AppendableFile out = storage.create(name, FileUse.ONCE)) {
      out.write(content);
      out.sync();
    }
  }

  @Test
  void writesReadBackExactlyAtEveryPositionForEveryUse() throws Exception {
    Storage storage = newStorage("rw");
    byte[] content = bytes(300_000, 1);
    try (AppendableFile out = storage.create("f", FileUse.CONTENT)) {
      assertEquals(0, out.position());
      out.write(content, 0, 1);
      out.write(content, 1, 65_535);
      out.flush();
      out.write(content, 65_536, content.length - 65_536);
      assertEquals(content.length, out.position());
      out.sync();
    }
    for (FileUse use : FileUse.values()) {
      try (ReadableFile in = storage.openRead("f", use)) {
        assertEquals(content.length, in.length(), use.name());
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 200; i++) {
          int at = random.nextInt(content.length);
          int length = random.nextInt(Math.min(20_000, content.length - at) + 1);
          byte[] read = new byte[length + 2];
          in.readFully(at, read, 1, length);
          assertArrayEquals(
              java.util.Arrays.copyOfRange(content, at, at + length),
              java.util.Arrays.copyOfRange(read, 1, length + 1),
              use + " at " + at);
        }
        assertArrayEquals(new byte[0], in.readFully(content.length, 0));
      }
    }
  }

  @Test
  void readingPastTheEndIsAnEofNamingTheFile() throws Exception {
    Storage storage = newStorage("eof");
    write(storage, "short", bytes(100, 3));
    for (FileUse use : FileUse.values()) {
      try (ReadableFile in = storage.openRead("short", use)) {
        EOFException e = assertThrows(EOFException.class, () -> in.readFully(95, 10));
        assertTrue(e.getMessage().contains(storage.describe("short")), e.getMessage());
      }
    }
    FileNotFoundException missing =
        assertThrows(FileNotFoundException.class, () -> storage.openRead("none", FileUse.ONCE));
    assertTrue(missing.getMessage().contains("none"), missing.getMessage());
  }

  @Test
  void createNeverClobbersAndRenameIsExclusive() throws Exception {
    Storage storage = newStorage("excl");
    write(storage, "a", new byte[] {1});
    assertThrows(IOException.class, () -> storage.create("a", FileUse.ONCE));
    write(storage, "b", new byte[] {2});
    assertThrows(IOException.class, () -> storage.rename("a", "b"));
    try (ReadableFile in = storage.openRead("b", FileUse.ONCE)) {
      assertArrayEquals(new byte[] {2}, in.readFully(0, 1), "a failed rename changed the target");
    }
    storage.rename("a", "c");
    try (ReadableFile in = storage.openRead("c", FileUse.ONCE)) {
      assertArrayEquals(new byte[] {1}, in.readFully(0, 1));
    }
    assertThrows(FileNotFoundException.class, () -> storage.openRead("a", FileUse.ONCE));
  }

  @Test
  void listingGivesEveryFileWithItsLengthAndDeleteIsIdempotent() throws Exception {
    Storage storage = newStorage("list");
    Map<String, Long> expected = new TreeMap<>();
    for (int i = 0; i < 12; i++) {
      String name = "file-" + i;
      write(storage, name, bytes(i * 1000, i));
      expected.put(name, i * 1000L);
    }
    Map<String, Long> listed =
        storage.list().stream()
            .collect(
                Collectors.toMap(
                    StoredFile::name, StoredFile::lengthBytes, (a, b) -> a, TreeMap::new));
    assertEquals(expected, listed);
    storage.delete("file-3");
    storage.delete("file-3");
    storage.delete("never-was");
    expected.remove("file-3");
    assertEquals(
        expected.keySet(),
        storage.list().stream().map(StoredFile::name).collect(Collectors.toSet()));
  }

  @Test
  void openReadersShareOneFileAcrossThreads() throws Exception {
    Storage storage = newStorage("threads");
    byte[] content = bytes(1 << 20, 7);
    write(storage, "f", content);
    try (ReadableFile in = storage.openRead("f", FileUse.CONTENT)) {
      Thread[] threads = new Thread[4];
      Throwable[] failure = new Throwable[1];
      for (int t = 0; t < threads.length; t++) {
        long seed = t;
        threads[t] =
            new Thread(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  try {
                    for (int i = 0; i < 300; i++) {
                      int at = random.nextInt(content.length - 4096);
                      byte[] read = in.readFully(at, 4096);
                      if (!java.util.Arrays.equals(read, 0, 4096, content, at, at + 4096)) {
                        throw new AssertionError("wrong bytes at " + at);
                      }
                    }
                  } catch (Throwable e) {
                    synchronized (failure) {
                      failure[0] = e;
                    }
                  }
                });
        threads[t].start();
      }
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(null, failure[0]);
    }
  }
}
