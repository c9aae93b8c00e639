package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import io.hpf.testing.ArchiveAssertions;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.StorageConformanceSuite;
import io.hpf.testing.TestArchives;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The conformance suite on local disk, read both memory-mapped and with one pread per read. */
class ArchiveConformanceTest extends StorageConformanceSuite {

  @Override
  protected Storage newStorage(String name) throws Exception {
    return LocalStorage.createDirectories(scratch.resolve(name));
  }

  @Override
  protected List<Storage> readViews(Storage storage) {
    return List.of(storage, ((LocalStorage) storage).withPositionalReads());
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
            scratch.resolve("big.hpf"),
            model,
            WriterOptions.builder().codec(Codec.LZ4).bucketCapacity(65_536).build(),
            2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertTrue(
          ((Manifest) reader.manifest()).segments().get(0).directory().buckets().size() >= 4);
      for (var e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      ArchiveAssertions.assertListing(reader, model, "d123/");
      ArchiveAssertions.assertListing(reader, model, "");
      // Index metadata in memory stays under 2 bytes per entry (perfect hashes only).
      assertTrue(
          reader.indexMemoryBytes() < 2L * model.size(),
          "index memory " + reader.indexMemoryBytes() + " bytes for " + model.size() + " entries");
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }
}
