package io.hpf.testing;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.AppendableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The archive conformance suite, run against every {@link Storage}: archives written from random
 * models, then added to, replaced, deleted from and compacted, read back exactly like the model by
 * every API, and verify clean. Subclasses say where archives live (local disk, HDFS).
 */
public abstract class StorageConformanceSuite {
  /** Local scratch space for source files (not where archives live). */
  @TempDir protected Path scratch;

  /** A new, empty archive directory called {@code name}. */
  protected abstract Storage newStorage(String name) throws Exception;

  /** Every way this storage can read an archive (local disk: mapped and positional). */
  protected List<Storage> readViews(Storage storage) {
    return List.of(storage);
  }

  private static WriterOptions.Builder options(Codec codec) {
    return WriterOptions.builder().codec(codec);
  }

  private static WriterOptions.Builder changeOptions() {
    // No grace: old files go at once, which also checks that nothing still named is deleted.
    return WriterOptions.builder().codec(Codec.LZ4).bucketCapacity(50).gracePeriodMillis(0);
  }

  private static void writeFile(Storage storage, String name, String text) throws Exception {
    try (AppendableFile file = storage.create(name, FileUse.ONCE)) {
      file.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  protected void assertArchive(Storage storage, TreeMap<String, byte[]> model) throws Exception {
    for (Storage view : readViews(storage)) {
      try (ArchiveReader reader = ArchiveReader.open(view)) {
        assertMatchesModel(reader, model);
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> "verify: " + report.problems());
    // Verify also checks the dead entries that changes leave behind until compaction.
    assertTrue(report.entriesChecked() >= model.size(), "entries checked");
  }

  private void roundTrip(TreeMap<String, byte[]> model, WriterOptions options, int threads)
      throws Exception {
    Storage storage = TestArchives.write(newStorage("a.hpf"), model, options, threads);
    assertArchive(storage, model);
    assertEquals(
        model.size(), ArchiveVerifier.verify(storage, ProgressListener.NONE).entriesChecked());
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyCodecRoundTrips(Codec codec) throws Exception {
    roundTrip(ArchiveModel.random(500, codec.id()), options(codec).build(), 3);
  }

  @Test
  void zstdWithDictionaryRoundTrips() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(600, 77);
    // A dictionary made of the model's own text entries, as the packer would train.
    byte[] trained = TestArchives.dictionary(model, 16 * 1024);
    roundTrip(model, options(Codec.ZSTD).dictionary(trained).build(), 2);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3, 100})
  void smallCounts(int count) throws Exception {
    roundTrip(ArchiveModel.random(count, count), options(Codec.LZ4).build(), 2);
  }

  @Test
  void smallBucketsForceDeepDirectoriesAndPartsRollOver() throws Exception {
    // Capacity 7 gives hundreds of buckets of several local depths; 64 KiB parts roll often.
    WriterOptions options = options(Codec.ZSTD).bucketCapacity(7).maxPartBytes(64 * 1024).build();
    roundTrip(ArchiveModel.random(2000, 5), options, 4);
  }

  @Test
  void tenMegabyteEntries() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(10);
    model.put("big/random", ArchiveModel.content(random, 10 << 20));
    model.put("big/text", new byte[10 << 20]);
    model.put("small", new byte[] {1});
    roundTrip(model, options(Codec.ZSTD).build(), 2);
  }

  @Test
  void entriesOverTheStreamThresholdAreStreamedRaw() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(50, 11);
    Path source = scratch.resolve("source.bin");
    byte[] large = ArchiveModel.content(new SplittableRandom(3), 3 << 20);
    java.nio.file.Files.write(source, large);
    Storage storage = newStorage("s.hpf");
    WriterOptions options = options(Codec.ZSTD).streamThresholdBytes(1 << 20).build();
    try (ArchiveWriter writer = ArchiveWriter.create(storage, options)) {
      for (var e : model.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
      }
      writer.addFile("streamed", source, EntryMetadata.of(0));
      writer.commit();
    }
    model.put("streamed", large);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      assertEquals(Codec.NONE, reader.stat("streamed").codec());
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void readerIsThreadSafe() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(2000, 12);
    Storage storage =
        TestArchives.write(newStorage("t.hpf"), model, options(Codec.ZSTD).build(), 2);
    String[] names = model.keySet().toArray(new String[0]);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
      var futures = new java.util.ArrayList<java.util.concurrent.Future<?>>();
      for (int t = 0; t < 8; t++) {
        long seed = t;
        futures.add(
            pool.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  for (int i = 0; i < 5000; i++) {
                    String name = names[random.nextInt(names.length)];
                    assertArrayEquals(model.get(name), reader.get(name), name);
                  }
                  return null;
                }));
      }
      for (var f : futures) {
        f.get();
      }
      pool.shutdown();
    }
  }

  /**
   * How many random sequences the model test runs (each 25 steps); a slow storage may run fewer
   * outside the long profile ({@link #LONG}).
   */
  protected int modelSequences() {
    return 3;
  }

  /** True under {@code -Plong}. */
  protected static final boolean LONG = Boolean.getBoolean("hpf.long");

  @Test
  void randomSequencesOfAddReplaceDeleteAndCompactMatchTheModel() throws Exception {
    for (long seed = 1; seed <= modelSequences(); seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      Storage storage = newStorage("m" + seed + ".hpf");
      TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
      try (ArchiveWriter writer = ArchiveWriter.create(storage, changeOptions().build())) {
        writer.commit();
      }
      int serial = 0;
      for (int step = 0; step < 25; step++) {
        int op = random.nextInt(10);
        WriterOptions opts =
            changeOptions().replace(op >= 4 && op < 6).maxSegments(3 + random.nextInt(4)).build();
        try (ArchiveWriter writer = ArchiveWriter.open(storage, opts)) {
          if (op < 6) { // add (or replace) a batch
            int n = 1 + random.nextInt(60);
            List<String> existing = new ArrayList<>(model.keySet());
            for (int i = 0; i < n; i++) {
              String name =
                  opts.replace() && !existing.isEmpty() && random.nextBoolean()
                      ? existing.get(random.nextInt(existing.size()))
                      : ArchiveModel.randomName(random, serial++);
              if (!opts.replace() && model.containsKey(name)) {
                continue;
              }
              if (model.containsKey(name) && existing.indexOf(name) < 0) {
                continue; // already added in this batch: a name once per commit
              }
              byte[] content = ArchiveModel.content(random, random.nextInt(3000));
              writer.add(name, content, EntryMetadata.of(step));
              model.put(name, content);
              existing.remove(name);
            }
            writer.commit();
          } else if (op < 9 && !model.isEmpty()) { // delete some
            List<String> names = new ArrayList<>(model.keySet());
            for (int i = 0; i < 1 + random.nextInt(20) && !names.isEmpty(); i++) {
              String name = names.remove(random.nextInt(names.size()));
              writer.delete(name);
              model.remove(name);
            }
            writer.commit();
          } else {
            writer.compact(random.nextBoolean());
          }
          assertTrue(
              ((Manifest) writer.manifest()).segments().size() <= opts.maxSegments(),
              "segments " + ((Manifest) writer.manifest()).segments().size());
        }
        assertArchive(storage, model);
      }
    }
  }

  @Test
  void addingAnExistingNameNeedsReplaceAndMissingDeletesAreErrors() throws Exception {
    Storage storage = newStorage("e.hpf");
    try (ArchiveWriter writer =
        ArchiveWriter.create(storage, changeOptions().reclaimRatio(2).build())) {
      writer.add("a", new byte[] {1}, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, changeOptions().build())) {
      // Checked against the last commit when added, before any content is written.
      NameConflictException e =
          assertThrows(
              NameConflictException.class,
              () -> writer.add("a", new byte[] {2}, EntryMetadata.of(0)));
      assertEquals(List.of("a"), e.names());
      assertEquals(0, writer.pendingEntries());
    }
    try (ArchiveWriter writer = ArchiveWriter.open(storage, changeOptions().build())) {
      writer.delete("nope");
      assertThrows(EntryNotFoundException.class, writer::commit);
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertArrayEquals(new byte[] {1}, reader.get("a"));
      assertEquals(1, reader.manifest().generation(), "failed commits changed nothing");
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, changeOptions().replace(true).reclaimRatio(2).build())) {
      writer.add("a", new byte[] {3}, EntryMetadata.of(0));
      writer.commit();
      assertEquals(1, writer.deletePrefix(""));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertNull(reader.stat("a"));
      assertEquals(0, reader.entryCount());
      List<String> log =
          reader.manifest().history().stream().map(Generation.Change::operation).toList();
      assertEquals(List.of("create 1 entry", "add --replace 1 entry", "rm 1 entry"), log);
    }
  }

  @Test
  void reclaimFreesTheSpaceOfDeletedEntries() throws Exception {
    Storage storage = newStorage("r.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(400, 8);
    WriterOptions keep = changeOptions().reclaimRatio(2).build(); // no automatic reclaim
    try (ArchiveWriter writer = ArchiveWriter.create(storage, keep)) {
      for (var e : model.entrySet()) {
        writer.add(e.getKey(), e.getValue(), EntryMetadata.of(0));
      }
      writer.commit();
    }
    long before;
    try (ArchiveWriter writer = ArchiveWriter.open(storage, keep)) {
      before = writer.manifest().partBytes();
      List<String> names = new ArrayList<>(model.keySet());
      for (int i = 0; i < 300; i++) {
        writer.delete(names.get(i));
        model.remove(names.get(i));
      }
      writer.commit();
      assertTrue(writer.manifest().deadBytes() > before / 2);
      CompactionResult result = writer.compact(true);
      assertTrue(result.reclaimed());
      assertTrue(result.bytesReclaimed() > before / 2, "reclaimed " + result.bytesReclaimed());
      assertEquals(0, writer.manifest().deadBytes());
      assertEquals(1, ((Manifest) writer.manifest()).segments().size());
    }
    assertArchive(storage, model);
  }

  @Test
  void aSecondWriterIsToldWhoHoldsTheLock() throws Exception {
    Storage storage = newStorage("l.hpf");
    try (ArchiveWriter writer = ArchiveWriter.create(storage, changeOptions().build())) {
      writer.commit();
      ArchiveLockedException e =
          assertThrows(
              ArchiveLockedException.class,
              () -> ArchiveWriter.open(storage, changeOptions().build()));
      assertTrue(e.getMessage().contains("pid " + ProcessHandle.current().pid()), e.getMessage());
      assertTrue(e.getMessage().contains("hpf.lock"), e.getMessage());
    }
    // Released on close; a stale lock (a writer that died) is broken only on request.
    writeFile(storage, "hpf.lock", "host x, pid 1, since then");
    assertThrows(
        ArchiveLockedException.class, () -> ArchiveWriter.open(storage, changeOptions().build()));
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, changeOptions().breakLock(true).build())) {
      assertEquals(1, writer.manifest().generation());
    }
  }

  @Test
  void theLockOfAWriterAliveOnThisHostIsNeverBroken() throws Exception {
    Storage storage = newStorage("alive.hpf");
    try (ArchiveWriter writer = ArchiveWriter.create(storage, changeOptions().build())) {
      writer.commit();
    }
    String host = java.net.InetAddress.getLocalHost().getHostName();
    java.time.Instant since = java.time.Instant.now();
    // This very process holds it, as a writer in another thread or process of this host would.
    writeFile(
        storage,
        "hpf.lock",
        "host " + host + ", pid " + ProcessHandle.current().pid() + ", since " + since);
    ArchiveLockedException alive =
        assertThrows(
            ArchiveLockedException.class,
            () -> ArchiveWriter.open(storage, changeOptions().breakLock(true).build()));
    assertTrue(alive.getMessage().contains("alive on this host"), alive.getMessage());
    // A process that has exited: its lock is stale and may be broken.
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    storage.delete("hpf.lock");
    writeFile(storage, "hpf.lock", "host " + host + ", pid " + gone.pid() + ", since " + since);
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, changeOptions().breakLock(true).build())) {
      assertEquals(1, writer.manifest().generation());
    }
  }

  @Test
  void openReadersKeepTheirSnapshotThroughTheGracePeriodAndCanRefresh() throws Exception {
    Storage storage = newStorage("g.hpf");
    WriterOptions grace = changeOptions().gracePeriodMillis(60_000).build();
    try (ArchiveWriter writer = ArchiveWriter.create(storage, grace)) {
      writer.add("x", new byte[] {1}, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveReader old = ArchiveReader.open(storage)) {
      try (ArchiveWriter writer = ArchiveWriter.open(storage, grace)) {
        writer.delete("x");
        writer.commit();
        writer.add("y", new byte[] {2}, EntryMetadata.of(0));
        writer.commit();
        writer.compact(true); // rewrites everything; x's part is now unreferenced
      }
      assertArrayEquals(new byte[] {1}, old.get("x"), "the old snapshot still reads");
      try (ArchiveReader fresh = old.refresh()) {
        assertNull(fresh.stat("x"));
        assertArrayEquals(new byte[] {2}, fresh.get("y"));
      }
    }
  }
}
