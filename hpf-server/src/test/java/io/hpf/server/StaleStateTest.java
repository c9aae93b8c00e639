package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.WriterOptions;
import io.hpf.server.testing.RawHttp;
import io.hpf.server.testing.TestServer;
import io.hpf.store.LocalStorage;
import io.hpf.testing.Damage;
import io.hpf.testing.TestArchives;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server that runs for days keeps must not go stale: an archive replaced under its path is
 * served as the new archive (its bytes under its ETags, never the old one's bytes under a new tag),
 * damage that comes after an entry was first served is found by the next read, and a whole read
 * checks the entry's CRC32C of all its content.
 */
class StaleStateTest {
  @TempDir Path root;
  @TempDir Path aside;

  static final int BIG = 32 * 1024;
  static final int HUGE = 3 << 20;

  /** Random (incompressible, so stored raw) entries of the sizes each read path takes. */
  static TreeMap<String, byte[]> model(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<String, byte[]> m = new TreeMap<>();
    for (var e :
        List.of(
            java.util.Map.entry("small.txt", 900),
            java.util.Map.entry("big.bin", BIG),
            java.util.Map.entry("huge.bin", HUGE))) {
      byte[] b = new byte[e.getValue()];
      random.nextBytes(b);
      m.put(e.getKey(), b);
    }
    return m;
  }

  static ServerOptions options(Path root) {
    ServerOptions o = TestServer.options(root);
    o.refreshMillis = 100;
    return o;
  }

  /** What the server answers for a name: status, ETag, body; null body if the body was cut. */
  record Answer(int status, String etag, byte[] body) {}

  static Answer get(HpfServer server, String target, String... headers) throws IOException {
    try (RawHttp http = new RawHttp(server.port())) {
      http.send("GET " + target + " HTTP/1.1\r\nHost: x\r\n" + String.join("", headers) + "\r\n");
      RawHttp.Response r = http.read();
      return r == null
          ? new Answer(-1, null, null)
          : new Answer(r.status(), r.header("etag"), r.body());
    } catch (IOException cut) {
      return new Answer(-1, null, null); // the connection closed mid-body
    }
  }

  /**
   * Replaced by renaming another archive of the same names, sizes and generation number over it (so
   * its entries lie at the same places with other bytes): every answer is one archive's bytes under
   * that archive's ETag, and within a second the new archive's, ranges and whole entries.
   */
  @Test
  void anArchiveRenamedOverAnotherIsServedAsTheNewOne() throws Exception {
    TreeMap<String, byte[]> a = model(1);
    TreeMap<String, byte[]> b = model(2);
    Path served = root.resolve("x.hpf");
    Path next = servedAndNext(served, a, b);
    try (HpfServer server = TestServer.start(options(root))) {
      String etagA = get(server, "/x/big.bin").etag();
      assertArrayEquals(a.get("big.bin"), get(server, "/x/big.bin").body()); // now kept open
      Files.move(served, aside.resolve("old.hpf"));
      Files.move(next, served);
      deleteTree(aside.resolve("old.hpf")); // the server may still hold its files open
      String etagB = awaitServed(server, "/x/big.bin", a.get("big.bin"), etagA, b.get("big.bin"));
      assertNotEquals(etagA, etagB);
      assertServedAs(server, b);
    }
  }

  /**
   * Replaced file by file in place, as rsync does (each file written aside and renamed over the one
   * of its name): the manifest keeps its name and generation number and is another file.
   */
  @Test
  void anArchiveReplacedFileByFileIsServedAsTheNewOne() throws Exception {
    TreeMap<String, byte[]> a = model(3);
    TreeMap<String, byte[]> b = model(4);
    Path served = root.resolve("x.hpf");
    Path next = servedAndNext(served, a, b);
    try (HpfServer server = TestServer.start(options(root))) {
      String etagA = get(server, "/x/big.bin").etag();
      assertArrayEquals(a.get("huge.bin"), get(server, "/x/huge.bin").body());
      try (Stream<Path> files = Files.list(next)) {
        for (Path f : files.sorted().toList()) {
          Files.move(f, served.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
      }
      awaitServed(server, "/x/big.bin", a.get("big.bin"), etagA, b.get("big.bin"));
      assertServedAs(server, b);
    }
  }

  /** Writes {@code a} as the archive {@code served} and {@code b} aside; returns where b is. */
  Path servedAndNext(Path served, TreeMap<String, byte[]> a, TreeMap<String, byte[]> b)
      throws Exception {
    TestArchives.write(served, a, WriterOptions.builder().build(), 1);
    Path next = aside.resolve("next.hpf");
    TestArchives.write(next, b, WriterOptions.builder().build(), 1);
    return next;
  }

  /**
   * Polls {@code target} until it is the new content, asserting that every answer meanwhile is the
   * old content under the old ETag, the new content under one tag, or a 503 (retry: the old
   * generation was to open a file the new archive has); returns the new tag.
   */
  static String awaitServed(
      HpfServer server, String target, byte[] before, String etagBefore, byte[] after)
      throws Exception {
    long start = System.nanoTime();
    String etagAfter = null;
    while (true) {
      if (System.nanoTime() - start > 1_500_000_000L) {
        fail("the replaced archive was still served after 1.5 s");
      }
      Answer r = get(server, target);
      if (r.status() == 503) { // the old generation met a file of the new archive: retry
        continue;
      }
      assertEquals(200, r.status(), target);
      if (Arrays.equals(after, r.body())) {
        assertTrue(etagAfter == null || etagAfter.equals(r.etag()));
        return r.etag();
      }
      assertArrayEquals(before, r.body(), "neither archive's bytes");
      assertEquals(etagBefore, r.etag(), "the old bytes under another tag");
      Thread.sleep(20);
    }
  }

  /** Whole entries, ranges and S3 reads all give {@code model}'s bytes. */
  static void assertServedAs(HpfServer server, TreeMap<String, byte[]> model) throws Exception {
    for (var e : model.entrySet()) {
      byte[] content = e.getValue();
      assertArrayEquals(content, get(server, "/x/" + e.getKey()).body(), e.getKey());
      Answer range = get(server, "/x/" + e.getKey(), "Range: bytes=100-899\r\n");
      assertEquals(206, range.status());
      assertArrayEquals(Arrays.copyOfRange(content, 100, 900), range.body(), e.getKey());
      Answer s3 = get(server, "/x/" + e.getKey(), "x-amz-date: 20260101T000000Z\r\n");
      assertArrayEquals(content, s3.body(), e.getKey());
    }
    Answer tail = get(server, "/x/huge.bin", "Range: bytes=" + (HUGE - 5000) + "-\r\n");
    assertArrayEquals(Arrays.copyOfRange(model.get("huge.bin"), HUGE - 5000, HUGE), tail.body());
  }

  /**
   * Damage that comes after an entry was served (bit rot, a bad write by something else): the next
   * GET, Range and S3 GetObject of it fail, where a table of entries checked once sent the damaged
   * bytes from the part file for good.
   */
  @Test
  void damageAfterAFirstReadIsFoundByTheNextRead() throws Exception {
    TreeMap<String, byte[]> a = model(5);
    Path served = root.resolve("x.hpf");
    TestArchives.write(served, a, WriterOptions.builder().build(), 1);
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (HpfServer server = TestServer.start(options(root))) {
      for (String name : List.of("big.bin")) {
        for (int i = 0; i < 3; i++) { // served, and served again from whatever was kept
          assertArrayEquals(a.get(name), get(server, "/x/" + name).body());
        }
        flip(served, name, 0);
        assertEquals(500, get(server, "/x/" + name).status(), name);
        assertEquals(500, get(server, "/x/" + name, "Range: bytes=0-99\r\n").status(), name);
        assertEquals(
            500, get(server, "/x/" + name, "x-amz-date: 20260101T000000Z\r\n").status(), name);
      }
      // A chunked entry: the damaged chunk fails the reads that touch it, the others still read.
      assertArrayEquals(a.get("huge.bin"), get(server, "/x/huge.bin").body());
      flip(served, "huge.bin", 0);
      Answer whole = get(server, "/x/huge.bin");
      assertTrue(whole.status() == 500 || whole.body() == null || whole.body().length < HUGE);
      assertEquals(500, get(server, "/x/huge.bin", "Range: bytes=0-99\r\n").status());
      Answer tail = get(server, "/x/huge.bin", "Range: bytes=" + (HUGE - 100) + "-\r\n");
      assertEquals(206, tail.status());
      assertArrayEquals(Arrays.copyOfRange(a.get("huge.bin"), HUGE - 100, HUGE), tail.body());
    } finally {
      System.setErr(originalErr);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    assertTrue(logged.contains("entry 'big.bin'"), logged);
    assertTrue(!logged.contains("Exception") && !logged.contains("\tat "), logged);
  }

  /**
   * The entry's CRC32C of all its content is checked on a whole read of chunked content, whose
   * chunks each pass their own: a mismatch cuts the body short (and is logged); ranges still read.
   */
  @Test
  void aWholeReadChecksTheEntrysCrcOfAllItsContent() throws Exception {
    TreeMap<String, byte[]> a = model(6);
    Path served = root.resolve("x.hpf");
    TestArchives.write(served, a, WriterOptions.builder().build(), 1);
    flip(served, "huge.bin", -1); // the trailer: the entry's CRC32C of all its content
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (HpfServer server = TestServer.start(options(root))) {
      Answer whole = get(server, "/x/huge.bin");
      assertTrue(
          whole.body() == null || whole.body().length < HUGE,
          "a whole read whose CRC32C does not hold was sent whole");
      Answer s3 = get(server, "/x/huge.bin", "x-amz-date: 20260101T000000Z\r\n");
      assertTrue(s3.body() == null || s3.body().length < HUGE);
      Answer range = get(server, "/x/huge.bin", "Range: bytes=1000-1999\r\n");
      assertEquals(206, range.status());
      assertArrayEquals(Arrays.copyOfRange(a.get("huge.bin"), 1000, 2000), range.body());
    } finally {
      System.setErr(originalErr);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    assertTrue(logged.contains("huge.bin"), logged);
  }

  /**
   * Flips a byte of an entry's stored content at {@code at} (from its start; -1: the trailer's
   * CRC32C).
   */
  static void flip(Path archive, String name, long at) throws Exception {
    EntryInfo info;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      info = reader.stat(name);
    }
    long place = at < 0 ? Damage.trailerOffset(info) + 2 : Damage.contentOffset(info) + at;
    Damage.flipByte(archive, info.partId(), place);
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
