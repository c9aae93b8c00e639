package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.format.Codec;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Archives written from random models read back exactly like the model, by every API. */
class ArchiveConformanceTest {
  @TempDir Path temp;

  private static WriterOptions.Builder options(Codec codec) {
    return WriterOptions.builder().codec(codec);
  }

  private void roundTrip(TreeMap<String, byte[]> model, WriterOptions options, int threads)
      throws Exception {
    LocalStorage storage = TestArchives.write(temp.resolve("a.hpf"), model, options, threads);
    // Both ways of reading local files: memory-mapped (default) and one pread per read.
    for (LocalStorage mode : java.util.List.of(storage, storage.withPositionalReads())) {
      try (ArchiveReader reader = ArchiveReader.open(mode)) {
        assertMatchesModel(reader, model);
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> "verify: " + report.problems());
    assertEquals(model.size(), report.entriesChecked());
  }

  @ParameterizedTest
  @EnumSource(Codec.class)
  void everyCodecRoundTrips(Codec codec) throws Exception {
    roundTrip(ArchiveModel.random(500, codec.id()), options(codec).build(), 3);
  }

  @Test
  void zstdWithDictionaryRoundTrips() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(600, 77);
    byte[] dictionary = DictionaryTrainer.train(java.util.List.of()); // too few: null
    assertEquals(null, dictionary);
    // A dictionary made of the model's own text entries, as the packer would train.
    byte[][] samples = model.values().stream().filter(v -> v.length > 64).toArray(byte[][]::new);
    byte[] trained = new byte[16 * 1024];
    long size = com.github.luben.zstd.Zstd.trainFromBuffer(samples, trained);
    assertTrue(size > 0 && !com.github.luben.zstd.Zstd.isError(size));
    roundTrip(
        model,
        options(Codec.ZSTD).dictionary(java.util.Arrays.copyOf(trained, (int) size)).build(),
        2);
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
    Path source = temp.resolve("source.bin");
    byte[] large = ArchiveModel.content(new SplittableRandom(3), 3 << 20);
    java.nio.file.Files.write(source, large);
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("s.hpf"));
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
  void twoHundredThousandEntries() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(200);
    for (int i = 0; i < 200_000; i++) {
      model.put(
          String.format(Locale.ROOT, "d%03d/file-%06d.txt", i % 997, i),
          ArchiveModel.content(random, random.nextInt(64)));
    }
    LocalStorage storage =
        TestArchives.write(
            temp.resolve("big.hpf"), model, options(Codec.LZ4).bucketCapacity(65_536).build(), 2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertTrue(reader.manifest().segments().get(0).directory().buckets().size() >= 4);
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      io.hpf.testing.ArchiveAssertions.assertListing(reader, model, "d123/");
      io.hpf.testing.ArchiveAssertions.assertListing(reader, model, "");
      // Index metadata in memory stays under 2 bytes per entry (perfect hashes only).
      assertTrue(
          reader.indexMemoryBytes() < 2L * model.size(),
          "index memory " + reader.indexMemoryBytes() + " bytes for " + model.size() + " entries");
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void readerIsThreadSafe() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(2000, 12);
    LocalStorage storage =
        TestArchives.write(temp.resolve("t.hpf"), model, options(Codec.ZSTD).build(), 2);
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
}
