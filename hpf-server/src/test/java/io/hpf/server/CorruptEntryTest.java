package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.server.testing.RawHttp;
import io.hpf.server.testing.TestServer;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged content is a 500 that names the archive and entry (the log has the details), never wrong
 * bytes; the server goes on serving every other entry.
 */
class CorruptEntryTest {
  @TempDir Path root;

  /** Flips one byte in the middle of an entry's stored content. */
  static void damage(Path archive, String name) throws Exception {
    EntryInfo info;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(archive))) {
      info = reader.stat(name);
    }
    long contentAt = info.offset() + info.entryLength() - info.storedLength() - 4;
    try (RandomAccessFile part =
        new RandomAccessFile(
            archive.resolve(FileNames.partFileName(info.partId())).toFile(), "rw")) {
      long at = contentAt + info.storedLength() / 2;
      part.seek(at);
      int b = part.read();
      part.seek(at);
      part.write(b ^ 0x5a);
    }
  }

  @Test
  void damagedEntriesAre500AndTheRestIsServed() throws Exception {
    SplittableRandom random = new SplittableRandom(8);
    TreeMap<String, byte[]> model = new TreeMap<>();
    model.put("small.txt", ArchiveModel.content(random, 900));
    model.put("big.bin", ArchiveModel.content(random, 200_000));
    model.put("huge.bin", ArchiveModel.content(random, 3 << 20));
    // Over the largest grouped entry, so that it is not in small.txt's group: damage to a group
    // fails all of its members (GroupTest), and this test is about the entries beside it.
    model.put("fine.txt", "fine\n".repeat(2000).getBytes(StandardCharsets.UTF_8));
    for (Codec codec : Codec.values()) {
      Path dir = root.resolve(codec.name().toLowerCase(java.util.Locale.ROOT) + ".hpf");
      TestArchives.write(dir, model, WriterOptions.builder().codec(codec).build(), 1);
      for (String name : List.of("small.txt", "big.bin", "huge.bin")) {
        damage(dir, name);
      }
    }
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (HpfServer server = TestServer.start(TestServer.options(root))) {
      for (Codec codec : Codec.values()) {
        String archive = codec.name().toLowerCase(java.util.Locale.ROOT);
        for (String name : List.of("small.txt", "big.bin")) {
          try (RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.get("/" + archive + "/" + name);
            assertEquals(500, r.status(), archive + "/" + name);
            assertEquals(
                "{\"error\":\"entry '"
                    + name
                    + "' of archive '"
                    + archive
                    + "' is damaged; the server log has details\",\"status\":500}",
                r.bodyText().strip());
          }
        }
        // A streamed entry fails when its end is checked: the body is cut short, never whole.
        try (RawHttp http = new RawHttp(server.port())) {
          RawHttp.Response r = http.get("/" + archive + "/huge.bin");
          boolean refused = r == null || r.status() == 500;
          boolean cut = r != null && r.status() == 200 && r.body().length < (3 << 20);
          assertTrue(refused || cut, archive + ": a damaged large entry was sent whole");
        } catch (java.io.IOException e) {
          // the connection closed mid-body: the client cannot take it for the entry
        }
        for (Map.Entry<String, byte[]> e : Map.of("fine.txt", model.get("fine.txt")).entrySet()) {
          try (RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.get("/" + archive + "/" + e.getKey());
            assertEquals(200, r.status());
            assertArrayEquals(e.getValue(), r.body());
          }
        }
      }
      // In one _mget, the damaged entries are 500 frames and the others are served: the batch
      // read fails, and its names are then fetched one by one.
      for (Codec codec : Codec.values()) {
        String archive = codec.name().toLowerCase(java.util.Locale.ROOT);
        String names = "fine.txt\nsmall.txt\nbig.bin\nmissing\nfine.txt\n";
        try (RawHttp http = new RawHttp(server.port())) {
          http.send(
              "POST /"
                  + archive
                  + "/_mget HTTP/1.1\r\nHost: x\r\nContent-Length: "
                  + names.length()
                  + "\r\n\r\n"
                  + names);
          RawHttp.Response r = http.read();
          assertEquals(200, r.status());
          byte[] fine = model.get("fine.txt");
          String frameOfFine = "200 " + fine.length + " fine.txt\n";
          java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
          expected.writeBytes(frameOfFine.getBytes(StandardCharsets.UTF_8));
          expected.writeBytes(fine);
          expected.writeBytes(
              "\n500 0 small.txt\n\n500 0 big.bin\n\n404 0 missing\n\n"
                  .getBytes(StandardCharsets.UTF_8));
          expected.writeBytes(frameOfFine.getBytes(StandardCharsets.UTF_8));
          expected.writeBytes(fine);
          expected.write('\n');
          assertArrayEquals(expected.toByteArray(), r.body(), archive);
        }
      }
      assertTrue(server.metrics().corruptEntries.sum() >= 12);
    } finally {
      System.setErr(originalErr);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    assertTrue(logged.contains("archive 'zstd' entry 'small.txt': "), logged);
    assertTrue(logged.contains("archive 'none' entry 'big.bin': "), logged);
    assertFalse(logged.contains("Exception"), logged);
    assertFalse(logged.contains("\tat "), logged);
  }

  /**
   * A large entry is stored in chunks with a CRC32C each (FORMAT.md "Chunked content"): a range in
   * any intact chunk of a damaged entry gives its bytes, a range that touches the damaged chunk is
   * a 500 before any byte is sent, and the whole entry is never sent whole.
   */
  @Test
  void rangesOfADamagedLargeEntryGiveCheckedBytesOrA500() throws Exception {
    byte[] huge = ArchiveModel.content(new SplittableRandom(9), 3 << 20);
    int chunk = 1 << io.hpf.internal.format.ChunkedEncoder.chunkShift(huge.length);
    for (Codec codec : Codec.values()) {
      Path dir = root.resolve("r-" + codec.name().toLowerCase(java.util.Locale.ROOT) + ".hpf");
      TestArchives.write(
          dir,
          new TreeMap<>(Map.of("huge.bin", huge)),
          WriterOptions.builder().codec(codec).build(),
          1);
      damage(dir, "huge.bin");
    }
    try (HpfServer server = TestServer.start(TestServer.options(root))) {
      for (Codec codec : Codec.values()) {
        String target = "/r-" + codec.name().toLowerCase(java.util.Locale.ROOT) + "/huge.bin";
        int refused = 0;
        for (int start = 1000; start < huge.length; start += chunk) {
          try (RawHttp http = new RawHttp(server.port())) {
            http.send(
                "GET "
                    + target
                    + " HTTP/1.1\r\nHost: x\r\nRange: bytes="
                    + start
                    + "-"
                    + (start + 99)
                    + "\r\n\r\n");
            RawHttp.Response r = http.read();
            if (r.status() == 500) {
              refused++;
              continue;
            }
            assertEquals(206, r.status(), target + " from " + start);
            assertArrayEquals(
                java.util.Arrays.copyOfRange(huge, start, start + 100), r.body(), target);
          }
        }
        assertEquals(1, refused, target + ": the one damaged chunk, and no other, is refused");
        try (RawHttp http = new RawHttp(server.port())) {
          RawHttp.Response r = http.get(target);
          assertTrue(
              r == null || r.status() == 500 || r.body().length < huge.length,
              target + ": a damaged large entry was sent whole");
        } catch (java.io.IOException e) {
          // the connection closed mid-body: the client cannot take it for the entry
        }
      }
    }
  }

  /**
   * Responses on connections the client asks to close ({@code Connection: close}) are sent whole
   * and log nothing: uncorking the closed socket after a zero-copy send was logged as a failed
   * read, with a Java class name (447 lines for 600 good GETs).
   */
  @Test
  void closedConnectionsAreServedAndLogNothing() throws Exception {
    byte[] content = ArchiveModel.content(new SplittableRandom(10), 100_000);
    TestArchives.write(
        root.resolve("raw.hpf"),
        new TreeMap<>(Map.of("f.bin", content)),
        WriterOptions.builder().codec(Codec.NONE).build(),
        1);
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (HpfServer server = TestServer.start(TestServer.options(root))) {
      for (int i = 0; i < 20; i++) {
        try (RawHttp http = new RawHttp(server.port())) {
          http.send("GET /raw/f.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
          RawHttp.Response r = http.read();
          assertEquals(200, r.status());
          assertArrayEquals(content, r.body());
        }
      }
    } finally {
      System.setErr(originalErr);
    }
    String logged = log.toString(StandardCharsets.UTF_8);
    assertFalse(logged.contains("WARN"), logged);
  }
}
