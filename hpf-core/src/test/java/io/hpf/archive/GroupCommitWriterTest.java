package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commits: many threads' single puts and deletes end in few commits, each change's future
 * completes only once a commit holding it is in place (a reader opened then sees it), changes of
 * one name apply in order, a put that clashes fails alone, and close commits what is pending.
 */
class GroupCommitWriterTest {
  @TempDir Path dir;

  Path archive() throws Exception {
    Path archive = dir.resolve("g.hpf");
    try (ArchiveWriter w =
        ArchiveWriter.create(
            LocalStorage.createDirectories(archive), WriterOptions.builder().build())) {
      w.add("seed", bytes("seed"), EntryMetadata.of(0));
      w.commit();
    }
    return archive;
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] readNow(Path archive, String name) throws Exception {
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      return r.stat(name) == null ? null : r.get(name);
    }
  }

  @Test
  void manyThreadsPutsEndInFewCommitsEachSeenOnceItsFutureCompletes() throws Exception {
    Path archive = archive();
    int threads = 8;
    int each = 100;
    Map<String, byte[]> model = new ConcurrentHashMap<>();
    List<String> unseen = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.Set<Long> commits = ConcurrentHashMap.newKeySet();
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(5, 10_000, 64L << 20))) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < each; i++) {
                    String name = "t" + thread + "/e" + i;
                    byte[] content = bytes(name + " " + "x".repeat(i % 97));
                    model.put(name, content);
                    Generation g =
                        w.put(name, content, EntryMetadata.of(i)).get(30, TimeUnit.SECONDS);
                    commits.add(g.generation());
                    // Durable and in place: a reader opened now sees it, at that generation or
                    // later.
                    if (i % 20 == 0 && !java.util.Arrays.equals(content, readNow(archive, name))) {
                      unseen.add(name + " at " + g.generation());
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
    assertEquals(List.of(), unseen);
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), r.get(e.getKey()), e.getKey());
      }
      // Each thread waits for its commit before its next put, so a group holds at most one put
      // of each: about one commit a round, far fewer than a commit a put.
      int puts = threads * each;
      assertTrue(commits.size() < puts / 4, commits.size() + " commits for " + puts + " puts");
    }
    assertEquals(
        List.of(),
        ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE).problems());
  }

  @Test
  void changesOfOneNameApplyInOrderAndDeletesOfMissingNamesSucceed() throws Exception {
    Path archive = archive();
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(50, 10_000, 64L << 20))) {
      List<CompletableFuture<Generation>> order = new ArrayList<>();
      for (int v = 0; v < 5; v++) { // without waiting: each waits for the group of the one before
        order.add(w.put("same", bytes("v" + v), EntryMetadata.of(v)));
      }
      CompletableFuture<Generation> gone = w.delete("seed");
      CompletableFuture<Generation> nothing = w.delete("never/was");
      long last = 0;
      for (CompletableFuture<Generation> f : order) {
        long g = f.get(30, TimeUnit.SECONDS).generation();
        assertTrue(g > last, "in order");
        last = g;
      }
      assertArrayEquals(bytes("v4"), readNow(archive, "same"));
      gone.get(30, TimeUnit.SECONDS);
      assertNull(readNow(archive, "seed"));
      nothing.get(30, TimeUnit.SECONDS);
      CompletableFuture<Generation> again = w.put("seed", bytes("back"), EntryMetadata.of(0));
      again.get(30, TimeUnit.SECONDS);
      assertArrayEquals(bytes("back"), readNow(archive, "seed"));
    }
  }

  @Test
  void changesAppliedTogetherLandInOneCommitEvenAFileMadeADirectory() throws Exception {
    Path archive = archive();
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(0, 10_000, 64L << 20))) {
      w.put("old", bytes("o"), EntryMetadata.of(0)).get(30, TimeUnit.SECONDS);
      long before = w.manifest().generation();
      // A rename of "old" to "new", and "seed" (a file) made the directory of "seed/x".
      long g =
          w.apply(
                  List.of(
                      GroupCommitWriter.Change.put("new", bytes("o"), EntryMetadata.of(0)),
                      GroupCommitWriter.Change.delete("old"),
                      GroupCommitWriter.Change.delete("seed"),
                      GroupCommitWriter.Change.put("seed/x", bytes("x"), EntryMetadata.of(0))))
              .get(30, TimeUnit.SECONDS)
              .generation();
      assertTrue(g > before);
      assertNull(readNow(archive, "old"));
      assertNull(readNow(archive, "seed"));
      assertArrayEquals(bytes("o"), readNow(archive, "new"));
      assertArrayEquals(bytes("x"), readNow(archive, "seed/x"));
      // Refused whole, before anything is written: a name twice, a put under a put, a put under
      // an entry the changes keep.
      for (List<GroupCommitWriter.Change> refused :
          List.of(
              List.of(
                  GroupCommitWriter.Change.put("a", bytes("1"), EntryMetadata.of(0)),
                  GroupCommitWriter.Change.delete("a")),
              List.of(
                  GroupCommitWriter.Change.put("b", bytes("1"), EntryMetadata.of(0)),
                  GroupCommitWriter.Change.put("b/c", bytes("2"), EntryMetadata.of(0))),
              List.of(
                  GroupCommitWriter.Change.put("c", bytes("1"), EntryMetadata.of(0)),
                  GroupCommitWriter.Change.put("new/d", bytes("2"), EntryMetadata.of(0))))) {
        ExecutionException e =
            org.junit.jupiter.api.Assertions.assertThrows(
                ExecutionException.class, () -> w.apply(refused).get(30, TimeUnit.SECONDS));
        assertInstanceOf(NameConflictException.class, e.getCause());
      }
      assertNull(readNow(archive, "a"));
      assertNull(readNow(archive, "c"));
      assertNull(readNow(archive, "b"));
    }
  }

  @Test
  void aPutUnderANameBeingDeletedWaitsForTheDeleteInsteadOfClashing() throws Exception {
    Path archive = archive(); // "seed" is a file
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      w.add("dir/x", bytes("x"), EntryMetadata.of(0));
      w.commit();
    }
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(1000, 10_000, 64L << 20))) {
      // rm seed; mkdir seed; write seed/y -- and rm -r dir; write dir: each put follows its delete
      CompletableFuture<Generation> fileGone = w.delete("seed");
      CompletableFuture<Generation> under = w.put("seed/y", bytes("y"), EntryMetadata.of(0));
      CompletableFuture<Generation> dirGone = w.delete("dir/x");
      CompletableFuture<Generation> over = w.put("dir", bytes("d"), EntryMetadata.of(0));
      for (CompletableFuture<Generation> f : List.of(fileGone, under, dirGone, over)) {
        f.get(30, TimeUnit.SECONDS);
      }
      assertTrue(under.get().generation() > fileGone.get().generation());
    }
    assertArrayEquals(bytes("y"), readNow(archive, "seed/y"));
    assertArrayEquals(bytes("d"), readNow(archive, "dir"));
    assertNull(readNow(archive, "dir/x"));
  }

  @Test
  void aPutThatClashesFailsAloneAndClosingCommitsWhatIsPending() throws Exception {
    Path archive = archive();
    try (ArchiveWriter w =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      w.add("old/x", bytes("x"), EntryMetadata.of(0)); // a directory before the writer opens
      w.commit();
    }
    CompletableFuture<Generation> overAnOldDirectory;
    CompletableFuture<Generation> fine;
    CompletableFuture<Generation> underAnEntry;
    CompletableFuture<Generation> overADirectory;
    CompletableFuture<Generation> pending;
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(1000, 10_000, 64L << 20))) {
      w.put("dir/file", bytes("f"), EntryMetadata.of(0)).get(30, TimeUnit.SECONDS);
      Thread.sleep(200); // the directory filter filled or not: the answer is the same
      overAnOldDirectory = w.put("old", bytes("o"), EntryMetadata.of(0));
      fine = w.put("other", bytes("o"), EntryMetadata.of(0));
      underAnEntry = w.put("seed/child", bytes("c"), EntryMetadata.of(0));
      overADirectory = w.put("dir", bytes("d"), EntryMetadata.of(0));
      pending = w.put("last", bytes("l"), EntryMetadata.of(0)); // a long window: still open
    }
    assertTrue(pending.isDone() && !pending.isCompletedExceptionally(), "close committed it");
    fine.get();
    for (CompletableFuture<Generation> f :
        List.of(underAnEntry, overADirectory, overAnOldDirectory)) {
      ExecutionException e =
          org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, f::get);
      assertInstanceOf(NameConflictException.class, e.getCause());
    }
    assertArrayEquals(bytes("o"), readNow(archive, "other"));
    assertArrayEquals(bytes("l"), readNow(archive, "last"));
    assertNull(readNow(archive, "seed/child"));
    assertArrayEquals(bytes("f"), readNow(archive, "dir/file"));
  }

  @Test
  void commitsOneAfterAnotherAppendToTheSamePartsAndKeepFewSegments() throws Exception {
    Path archive = archive();
    Map<String, byte[]> model = new java.util.TreeMap<>();
    model.put("seed", bytes("seed"));
    java.util.Random random = new java.util.Random(3);
    ArchiveReader early = null;
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            GroupCommitWriter.Settings.DEFAULTS)) {
      for (int i = 0; i < 300; i++) {
        String name = "d" + (i % 7) + "/f" + (i % 250); // the last 50 replace
        byte[] content = new byte[random.nextInt(3000)];
        random.nextBytes(content);
        w.put(name, content, EntryMetadata.of(i)).get(30, TimeUnit.SECONDS);
        model.put(name, content);
        if (i == 20) {
          early = ArchiveReader.open(LocalStorage.open(archive)); // a reader of a grown part
        }
      }
      Generation last = w.manifest();
      assertTrue(last.generation() > 300, "a commit per put: " + last.generation());
      assertTrue(last.parts().size() <= 2, "parts " + last.parts());
      // Size tiers bound the segments while commits come (the limit waits for a pause).
      assertTrue(last.segmentCount() <= 16, "segments " + last.segmentCount());
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      assertTrue(r.manifest().segmentCount() <= 8, "closed: " + r.manifest().segmentCount());
      assertEquals(model.keySet().size(), r.manifest().liveEntries());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), r.get(e.getKey()), e.getKey());
      }
    }
    try (ArchiveReader r = early) {
      assertEquals(22, r.manifest().liveEntries());
      assertArrayEquals(bytes("seed"), r.get("seed"));
      assertTrue(r.get("d6/f20").length >= 0);
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    try (ArchiveWriter again =
        ArchiveWriter.open(LocalStorage.open(archive), WriterOptions.builder().build())) {
      assertEquals(0, again.recovery().entriesRecovered(), "nothing uncommitted was left");
    }
  }

  @Test
  void manyThreadsReplacingTheSameNamesNeverCommitANameTwice() throws Exception {
    Path archive = archive();
    Map<String, byte[]> last = new ConcurrentHashMap<>();
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().build(),
            new GroupCommitWriter.Settings(0, 10_000, 64L << 20))) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  java.util.Random random = new java.util.Random(thread);
                  for (int i = 0; i < 150; i++) {
                    String name = "hot/" + random.nextInt(3);
                    byte[] content = new byte[random.nextInt(40_000)];
                    random.nextBytes(content);
                    w.put(name, content, EntryMetadata.of(i)).get(30, TimeUnit.SECONDS);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(); // a commit that held a name twice would have failed these puts
      }
      pool.shutdown();
      try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
        for (int n = 0; n < 3; n++) {
          last.put("hot/" + n, r.get("hot/" + n));
        }
      }
    }
    assertEquals(3, last.size());
    assertTrue(ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE).ok());
  }

  @Test
  void filesNoCommitNamesAreDeletedOnceTheGracePeriodPassesWithoutAListing() throws Exception {
    Path archive = archive();
    try (GroupCommitWriter w =
        GroupCommitWriter.open(
            LocalStorage.open(archive),
            WriterOptions.builder().gracePeriodMillis(0).build(),
            new GroupCommitWriter.Settings(0, 10_000, 64L << 20))) {
      for (int i = 0; i < 200; i++) {
        w.put("f/" + i, bytes("v" + i), EntryMetadata.of(i)).get(30, TimeUnit.SECONDS);
      }
      Generation last = w.manifest();
      // What the newest manifest names, its manifest and the lock, and at most what the last
      // commit superseded (deleted at the next one): nothing of the 200 commits before.
      long files;
      try (var listing = java.nio.file.Files.list(archive)) {
        files = listing.count();
      }
      long named = last.parts().size() + 2L * last.segmentCount() + 2;
      assertTrue(files <= named + 4, files + " files, the newest manifest names " + named);
    }
    try (ArchiveReader r = ArchiveReader.open(LocalStorage.open(archive))) {
      assertArrayEquals(bytes("v199"), r.get("f/199"));
    }
    assertTrue(ArchiveVerifier.verify(LocalStorage.open(archive), ProgressListener.NONE).ok());
  }
}
