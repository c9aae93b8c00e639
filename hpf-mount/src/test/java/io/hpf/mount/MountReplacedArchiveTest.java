package io.hpf.mount;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hpf.archive.model.WriterOptions;
import io.hpf.testing.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive replaced under a mount by another of the same names, sizes, times and generation
 * number (a deploy, a restore: its entries lie at the same places with other bytes) is served as
 * the new archive within seconds, by a mount of the archive and by a mount of its directory; no
 * read meanwhile gives a mix of the two.
 */
class MountReplacedArchiveTest {
  @TempDir Path temp;

  static TreeMap<String, byte[]> model(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<String, byte[]> m = new TreeMap<>();
    for (int i = 0; i < 5; i++) {
      byte[] b = new byte[i == 0 ? 3 << 20 : 40_000];
      random.nextBytes(b);
      m.put("d/f" + i + ".bin", b);
    }
    return m;
  }

  @Test
  void aMountedArchiveReplacedByRenameIsServedAsTheNewOne() throws Exception {
    Mounted.assumeFuse();
    Path archive = temp.resolve("root/x.hpf");
    TreeMap<String, byte[]> a = model(1);
    TreeMap<String, byte[]> b = model(2);
    TestArchives.write(archive, a, WriterOptions.builder().build(), 1);
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"))) {
      replaceAndAwait(archive, a, b, mount.dir);
    }
  }

  @Test
  void anArchiveReplacedUnderAMountedDirectoryIsServedAsTheNewOne() throws Exception {
    Mounted.assumeFuse();
    Path archive = temp.resolve("root/x.hpf");
    TreeMap<String, byte[]> a = model(3);
    TreeMap<String, byte[]> b = model(4);
    TestArchives.write(archive, a, WriterOptions.builder().build(), 1);
    try (Mounted mount = Mounted.mount(temp.resolve("root").toString(), temp.resolve("mnt"))) {
      replaceAndAwait(archive, a, b, mount.dir.resolve("x"));
    }
  }

  /**
   * Damage that comes after a file was read (bit rot): once the kernel's pages of it are gone, the
   * next read goes to the archive and fails (EIO) rather than giving the damaged bytes.
   */
  @Test
  void damageAfterAFirstReadIsFoundByTheNextRead() throws Exception {
    Mounted.assumeFuse();
    Path archive = temp.resolve("root/x.hpf");
    TreeMap<String, byte[]> a = model(5);
    TestArchives.write(archive, a, WriterOptions.builder().build(), 1);
    String name = "d/f1.bin"; // 40,000 bytes: the kernel asks for it in one request
    try (Mounted mount = Mounted.mount(archive.toString(), temp.resolve("mnt"))) {
      assertArrayEquals(a.get(name), Files.readAllBytes(mount.dir.resolve(name)));
      io.hpf.archive.model.EntryInfo row;
      try (io.hpf.archive.ArchiveReader r =
          io.hpf.archive.ArchiveReader.open(io.hpf.store.LocalStorage.open(archive))) {
        row = r.stat(name);
      }
      io.hpf.testing.Damage.flipByte(
          archive, row.partId(), io.hpf.testing.Damage.contentOffset(row) + 1000);
      Files.writeString(Path.of("/proc/sys/vm/drop_caches"), "1"); // the kernel's pages go
      assertThrows(java.io.IOException.class, () -> Files.readAllBytes(mount.dir.resolve(name)));
      assertArrayEquals(a.get("d/f2.bin"), Files.readAllBytes(mount.dir.resolve("d/f2.bin")));
    }
  }

  /** Reads {@code a} through {@code mnt}, renames an archive of {@code b} over it, awaits b. */
  void replaceAndAwait(Path archive, TreeMap<String, byte[]> a, TreeMap<String, byte[]> b, Path mnt)
      throws Exception {
    for (var e : a.entrySet()) {
      assertArrayEquals(e.getValue(), Files.readAllBytes(mnt.resolve(e.getKey())), e.getKey());
    }
    Path next = temp.resolve("next.hpf");
    TestArchives.write(next, b, WriterOptions.builder().build(), 1);
    Files.move(archive, temp.resolve("old.hpf"));
    Files.move(next, archive);
    try (Stream<Path> old = Files.walk(temp.resolve("old.hpf"))) {
      for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    long start = System.nanoTime();
    for (var e : b.entrySet()) {
      while (true) {
        byte[] got;
        try {
          got = Files.readAllBytes(mnt.resolve(e.getKey()));
        } catch (java.io.IOException eio) {
          got = null; // the old generation met a file of the new archive: refused, not mixed
        }
        if (Arrays.equals(e.getValue(), got)) {
          break;
        }
        if (got != null) {
          assertArrayEquals(a.get(e.getKey()), got, "neither archive's bytes: " + e.getKey());
        }
        if (System.nanoTime() - start > 10_000_000_000L) {
          fail("the replaced archive was still served after 10 s: " + e.getKey());
        }
        Thread.sleep(100);
      }
    }
    assertTrue((System.nanoTime() - start) / 1_000_000 < 10_000);
  }
}
