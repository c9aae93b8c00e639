package io.hpf.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.server.client.HpfHttpClient;
import io.hpf.server.testing.TestServer;
import io.hpf.store.LocalStorage;
import io.hpf.testing.TestArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive changed by adds and deletes while clients read it: each commit is served within a
 * second, no client ever gets an error or a wrong byte, and a deleted entry is not served after the
 * refresh that follows its commit.
 */
class LiveArchiveTest {
  @TempDir Path root;

  static byte[] content(String name, int version) {
    return (name + " version " + version + "\n")
        .repeat(1 + name.length() % 7)
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void commitsAreSeenWithinASecondWhileClientsReadWithoutErrors() throws Exception {
    Path dir = root.resolve("live.hpf");
    TreeMap<String, byte[]> first = new TreeMap<>();
    for (int i = 0; i < 200; i++) {
      first.put("stable/" + i, content("stable/" + i, 0));
    }
    TestArchives.write(dir, first, WriterOptions.builder().build(), 1);
    ServerOptions o = TestServer.options(root);
    o.refreshMillis = 200;
    try (HpfServer server = TestServer.start(o)) {
      HpfHttpClient client = HpfHttpClient.of(TestServer.base(server));
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicInteger reads = new AtomicInteger();
      // Names the writer has committed and not deleted: readers may expect them.
      ConcurrentHashMap<String, byte[]> committed = new ConcurrentHashMap<>(first);
      List<Thread> readers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int seed = t;
        Thread reader =
            new Thread(
                () -> {
                  java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                  try {
                    while (!done.get()) {
                      String name = "stable/" + random.nextInt(200);
                      byte[] got = client.get("live", name);
                      assertArrayEquals(committed.get(name), got, name);
                      reads.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                  }
                });
        reader.start();
        readers.add(reader);
      }
      List<Long> visibleAfterMillis = new ArrayList<>();
      try (ArchiveWriter writer =
          ArchiveWriter.open(LocalStorage.open(dir), WriterOptions.builder().build())) {
        for (int round = 1; round <= 6; round++) {
          String added = "new/" + round;
          writer.add(added, content(added, round), EntryMetadata.of(0));
          String removed = round > 1 ? "new/" + (round - 1) : null;
          if (removed != null) {
            writer.delete(removed);
          }
          writer.commit();
          long committedAt = System.nanoTime();
          byte[] got;
          while ((got = client.get("live", added)) == null) {
            assertTrue(System.nanoTime() - committedAt < 1_000_000_000L, added + " not served");
            Thread.sleep(10);
          }
          visibleAfterMillis.add((System.nanoTime() - committedAt) / 1_000_000);
          assertArrayEquals(content(added, round), got);
          if (removed != null) {
            assertNull(client.get("live", removed), removed + " served after the refresh");
          }
        }
      }
      done.set(true);
      for (Thread r : readers) {
        r.join();
      }
      if (failure.get() != null) {
        throw new AssertionError("a reader failed", failure.get());
      }
      assertTrue(reads.get() > 100, "readers read " + reads.get() + " times");
      assertEquals(6, visibleAfterMillis.size());
      // Each commit is a generation; merges after a commit may add more.
      assertTrue(
          server.metrics().refreshes.sum() + server.metrics().readerMisses.sum() >= 6,
          "refreshes "
              + server.metrics().refreshes.sum()
              + ", opens "
              + server.metrics().readerMisses.sum());
    }
  }
}
