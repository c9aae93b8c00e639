package io.hpf.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers in other threads and in another process do random gets while a writer adds, deletes and
 * compacts (index-only and reclaiming): no wrong bytes and no error, except "not found" for a name
 * deleted in the reader's snapshot.
 */
class ConcurrentReadersTest {
  @TempDir Path temp;

  static byte[] contentOf(String name) {
    return CrashScenario.content(name, 0, (name.length() * 37) % 3000);
  }

  @Test
  void readersNeverSeeWrongBytesDuringAddsAndCompactions() throws Exception {
    Path dir = temp.resolve("c.hpf");
    LocalStorage storage = LocalStorage.createDirectories(dir);
    WriterOptions options =
        WriterOptions.builder()
            .codec(Codec.ZSTD)
            .bucketCapacity(200)
            .maxPartBytes(64 * 1024)
            .maxSegments(4)
            .gracePeriodMillis(60_000)
            .build();
    List<String> initial = new ArrayList<>();
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options)) {
      for (int i = 0; i < 500; i++) {
        String name = "initial/" + i;
        writer.add(name, contentOf(name), EntryMetadata.of(0));
        initial.add(name);
      }
      writer.commit();
    }
    Set<String> known = ConcurrentHashMap.newKeySet();
    known.addAll(initial);
    // The generation whose commit added each name after the first.
    java.util.Map<String, Long> addedAt = new ConcurrentHashMap<>();
    Set<String> deleted = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong gets = new AtomicLong();
    List<Thread> readers = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      long seed = t;
      Thread reader =
          new Thread(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                try {
                  ArchiveReader r = ArchiveReader.open(storage);
                  while (!stop.get()) {
                    List<String> names = new ArrayList<>(known);
                    String name = names.get(random.nextInt(names.size()));
                    try {
                      assertArrayEquals(contentOf(name), r.get(name), name);
                    } catch (EntryNotFoundException e) {
                      // Fine only for a name added after this snapshot or deleted in it.
                      long snapshot = r.manifest().generation();
                      assertTrue(
                          deleted.contains(name) || addedAt.getOrDefault(name, 1L) > snapshot,
                          "not found in generation " + snapshot + ", never deleted: " + name);
                    }
                    if (gets.incrementAndGet() % 300 == 0) {
                      ArchiveReader fresh = r.refresh();
                      if (fresh != r) {
                        r.close();
                        r = fresh;
                      }
                    }
                  }
                  r.close();
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      readers.add(reader);
      reader.start();
    }
    Process other =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ReaderProcessMain.class.getName(),
                dir.toString(),
                "4000")
            .redirectErrorStream(true)
            .start();

    SplittableRandom random = new SplittableRandom(99);
    for (int round = 0; round < 30; round++) {
      try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
        if (round % 7 == 6) {
          writer.compact(round % 2 == 0);
          continue;
        }
        List<String> added = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          String name = "round" + round + "/" + i;
          writer.add(name, contentOf(name), EntryMetadata.of(round));
          added.add(name);
        }
        List<String> candidates = new ArrayList<>(initial);
        candidates.removeAll(deleted);
        List<String> doomed = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
          doomed.add(candidates.remove(random.nextInt(candidates.size())));
        }
        doomed.forEach(writer::delete);
        deleted.addAll(doomed); // before the commit: a reader may see the deletion from now on
        long addGeneration = writer.manifest().generation() + 1; // compaction may follow it
        for (String name : added) {
          addedAt.put(name, addGeneration);
        }
        writer.commit();
        known.addAll(added);
      }
    }
    byte[] output = other.getInputStream().readAllBytes();
    int exit = other.waitFor();
    stop.set(true);
    for (Thread reader : readers) {
      reader.join();
    }
    if (failure.get() != null) {
      throw new AssertionError("a reader thread failed", failure.get());
    }
    String text = new String(output, StandardCharsets.UTF_8);
    assertEquals(0, exit, "reader process: " + text);
    assertTrue(text.startsWith("OK"), text);
    assertTrue(gets.get() > 1000, "reader threads did only " + gets.get() + " gets");
  }
}
