package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries no larger than a block never straddle a block boundary; the padding reads as such. */
class BlockAlignmentTest {
  private static final int BLOCK = 4096;

  @TempDir Path temp;

  @Test
  void smallEntriesStayInsideOneBlockAndPaddingIsZeros() throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(4);
    for (int i = 0; i < 600; i++) {
      // Mostly under a block, some over it (those may straddle), incompressible.
      int size = random.nextInt(10) == 0 ? BLOCK + random.nextInt(3 * BLOCK) : random.nextInt(3000);
      model.put("f" + i, ArchiveModel.content(random, size));
    }
    WriterOptions options =
        WriterOptions.builder()
            .codec(Codec.NONE)
            .blockAlignment(BLOCK)
            .gracePeriodMillis(0)
            .build();
    LocalStorage storage = TestArchives.write(temp.resolve("a.hpf"), model, options, 2);
    long padded = 0;
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      for (String name : model.keySet()) {
        EntryInfo row = reader.stat(name);
        long first = row.offset() / BLOCK;
        long last = (row.offset() + row.entryLength() - 1) / BLOCK;
        if (row.entryLength() <= BLOCK) {
          assertEquals(first, last, name + " at " + row.offset() + " straddles a block boundary");
        }
        if (row.offset() % BLOCK == 0) {
          padded++;
        }
      }
    }
    assertTrue(padded > 20, "expected many padded entries, got " + padded);
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), () -> report.problems().toString());
    // Compaction copies entries into new parts, aligning them again.
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options)) {
      writer.compact(true);
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertMatchesModel(reader, model);
      for (String name : model.keySet()) {
        EntryInfo row = reader.stat(name);
        if (row.entryLength() <= BLOCK) {
          assertEquals(row.offset() / BLOCK, (row.offset() + row.entryLength() - 1) / BLOCK, name);
        }
      }
    }
    assertTrue(ArchiveVerifier.verify(storage, ProgressListener.NONE).ok());
  }

  @Test
  void withoutAlignmentEntriesFollowEachOtherExactly() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(300, 9);
    LocalStorage storage =
        TestArchives.write(
            temp.resolve("b.hpf"),
            model,
            WriterOptions.builder().codec(Codec.LZ4).build(), // local disk: no blocks
            1);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      long total = 0;
      for (String name : model.keySet()) {
        total += reader.stat(name).accountedBytes(); // a group's bytes shared by its members
      }
      assertEquals(
          io.hpf.internal.format.FormatConstants.FILE_HEADER_BYTES + total,
          reader.manifest().partBytes());
    }
  }
}
