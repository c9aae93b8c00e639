package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * I/O errors at every kind of call, at random: a read gives the right bytes or an error naming the
 * archive's file, and a writer that fails loses no committed entry.
 */
class FaultInjectionTest {
  @TempDir Path temp;

  private static void assertNamesArchive(Throwable e, Path dir) {
    Throwable t = e instanceof UncheckedIOException ? e.getCause() : e;
    assertTrue(
        t.getMessage() != null && t.getMessage().contains(dir.toString()),
        "error should name a file of " + dir + ": " + t);
  }

  @Test
  void readsUnderFaultsGiveRightBytesOrErrorsNamingTheFile() throws Exception {
    Path dir = temp.resolve("r.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(400, 5);
    TestArchives.write(
        dir, model, WriterOptions.builder().codec(Codec.ZSTD).bucketCapacity(50).build(), 2);
    for (long seed = 0; seed < 20; seed++) {
      FaultyStorage faulty = new FaultyStorage(LocalStorage.open(dir), seed);
      faulty.failWithProbability(0.02);
      try (ArchiveReader reader = ArchiveReader.open(faulty)) {
        for (Map.Entry<String, byte[]> e : model.entrySet()) {
          try {
            assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
          } catch (EntryNotFoundException nf) {
            fail("a fault made '" + e.getKey() + "' silently not found");
          } catch (IOException io) {
            assertNamesArchive(io, dir);
          }
        }
        try {
          List<String> listed = new ArrayList<>();
          reader.list("").forEachRemaining(info -> listed.add(info.name()));
          assertEquals(new ArrayList<>(model.keySet()), listed);
        } catch (UncheckedIOException io) {
          assertNamesArchive(io, dir);
        }
      } catch (IOException openFailed) {
        assertNamesArchive(openFailed, dir);
      }
    }
  }

  @Test
  void writersThatFailLoseNothingCommitted() throws Exception {
    Path dir = temp.resolve("w.hpf");
    LocalStorage local = LocalStorage.createDirectories(dir);
    TreeMap<String, byte[]> committed = new TreeMap<>(ArchiveModel::compareUtf8);
    WriterOptions options =
        WriterOptions.builder().replace(true).gracePeriodMillis(0).bucketCapacity(30).build();
    WriterOptions reopen =
        WriterOptions.builder().replace(true).gracePeriodMillis(0).breakLock(true).build();
    try (ArchiveWriter writer = ArchiveWriter.create(local, options)) {
      writer.commit();
    }
    SplittableRandom random = new SplittableRandom(11);
    int serial = 0;
    int failures = 0;
    for (int round = 0; round < 60; round++) {
      FaultyStorage faulty = new FaultyStorage(local, round);
      TreeMap<String, byte[]> next = new TreeMap<>(committed);
      boolean succeeded = false;
      try {
        faulty.failWithProbability(0.03);
        try (ArchiveWriter writer = ArchiveWriter.open(faulty, reopen)) {
          java.util.Set<String> touched = new java.util.HashSet<>();
          for (int i = 0; i < 1 + random.nextInt(20); i++) {
            if (!next.isEmpty() && random.nextInt(4) == 0) {
              String victim = next.ceilingKey(ArchiveModel.randomName(random, serial++));
              victim = victim == null ? next.firstKey() : victim;
              if (touched.add(victim)) {
                writer.delete(victim);
                next.remove(victim);
              }
            } else {
              String name = ArchiveModel.randomName(random, serial++);
              if (touched.add(name)) {
                byte[] content = ArchiveModel.content(random, random.nextInt(3000));
                writer.add(name, content, EntryMetadata.of(0));
                next.put(name, content);
              }
            }
          }
          writer.commit();
        }
        succeeded = true;
      } catch (IOException | RuntimeException e) {
        failures++;
        assertTrue(
            !(e instanceof NullPointerException || e instanceof ClassCastException),
            "a fault surfaced as an internal error: " + e);
      }
      faulty.failWithProbability(0);
      // A writer whose lock could not be deleted was this process's; nobody holds it now.
      local.delete("hpf.lock");
      // The next writer recovers what a failed one left (it may keep entries the failed writer
      // appended but never committed, never changing a committed name).
      try (ArchiveWriter recover = ArchiveWriter.open(local, reopen)) {
        assertTrue(recover.manifest() != null);
      }
      TreeMap<String, byte[]> actual = new TreeMap<>(ArchiveModel::compareUtf8);
      try (ArchiveReader reader = ArchiveReader.open(local)) {
        for (java.util.Iterator<io.hpf.archive.model.EntryInfo> it = reader.list("");
            it.hasNext(); ) {
          String name = it.next().name();
          actual.put(name, reader.get(name));
        }
      }
      assertTrue(!succeeded || sameEntries(actual, next), "round " + round + ": commit lost");
      if (!sameEntries(actual, next)) {
        // The round's commit did not land: what was committed is there, unchanged, and anything
        // more is an entry the failed writer added, with the bytes it added.
        for (Map.Entry<String, byte[]> e : committed.entrySet()) {
          assertArrayEquals(
              e.getValue(), actual.get(e.getKey()), "round " + round + ": " + e.getKey());
        }
        for (Map.Entry<String, byte[]> e : actual.entrySet()) {
          if (!committed.containsKey(e.getKey())) {
            assertArrayEquals(
                next.get(e.getKey()), e.getValue(), "round " + round + ": " + e.getKey());
          }
        }
      }
      committed = actual;
    }
    assertTrue(failures > 5, "too few faults to mean anything: " + failures);
    assertTrue(ArchiveVerifier.verify(local, ProgressListener.NONE).ok());
  }

  private static boolean sameEntries(Map<String, byte[]> a, Map<String, byte[]> b) {
    if (!a.keySet().equals(b.keySet())) {
      return false;
    }
    for (Map.Entry<String, byte[]> e : a.entrySet()) {
      if (!java.util.Arrays.equals(e.getValue(), b.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }
}
