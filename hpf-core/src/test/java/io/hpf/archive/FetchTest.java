package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage.FileUse;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link ArchiveReader#fetch}: row, checksum and content of an entry from one lookup. */
class FetchTest {
  @TempDir Path temp;

  @ParameterizedTest
  @EnumSource(Codec.class)
  void fetchGivesRowChecksumAndSmallContentForEveryEntry(Codec codec) throws Exception {
    Path dir = temp.resolve(codec + ".hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(300, codec.ordinal() + 7L);
    model.put("large/one.bin", ArchiveModel.content(new java.util.SplittableRandom(3), 300_000));
    TestArchives.write(dir, model, WriterOptions.builder().codec(codec).build(), 2);
    int maxWhole = 64 * 1024;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        byte[] expected = e.getValue();
        FetchedEntry fetched = reader.fetch(e.getKey(), maxWhole);
        assertEquals(e.getKey(), fetched.info().name());
        assertEquals(expected.length, fetched.info().rawLength());
        CRC32C crc = new CRC32C();
        crc.update(expected);
        assertEquals((int) crc.getValue(), fetched.crc32c(), e.getKey());
        if (expected.length <= maxWhole && fetched.info().storedLength() <= maxWhole) {
          assertArrayEquals(expected, fetched.content(), e.getKey());
        } else {
          assertNull(fetched.content(), e.getKey());
        }
        try (InputStream in = reader.openStream(fetched.info(), 0)) {
          assertArrayEquals(expected, in.readAllBytes(), e.getKey());
        }
        if (fetched.info().inGroup()) {
          assertArrayEquals(expected, fetched.content(), "a member always comes whole");
        } else if (fetched.info().codec() == Codec.NONE) {
          // The stored bytes at contentOffset are the content: what zero-copy sends.
          String part = FileNames.partFileName(fetched.info().partId());
          try (ReadableFile file = reader.storage().openRead(part, FileUse.ONCE)) {
            assertArrayEquals(
                expected, file.readFully(fetched.contentOffset(), expected.length), e.getKey());
          }
        }
      }
      assertNull(reader.fetch("no/such/name", maxWhole));
      assertNull(reader.fetch("../escape", maxWhole));
    }
  }

  @Test
  void aSmallEntryIsOneReadAndDeletedNamesAreNotFetched() throws Exception {
    Path dir = temp.resolve("d.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(40, 5);
    TestArchives.write(dir, model, WriterOptions.builder().build(), 1);
    String gone = model.firstKey();
    try (ArchiveWriter writer =
        ArchiveWriter.open(LocalStorage.open(dir), WriterOptions.builder().build())) {
      writer.delete(gone);
      writer.commit();
    }
    FaultyStorage counted = new FaultyStorage(LocalStorage.open(dir), 0);
    try (ArchiveReader reader = ArchiveReader.open(counted)) {
      assertNull(reader.fetch(gone, 1 << 20));
      String kept = model.lastKey();
      reader.fetch(kept, 1 << 20); // warms the bucket's perfect hash and opens the part
      long before = counted.reads();
      FetchedEntry fetched = reader.fetch(kept, 1 << 20);
      assertArrayEquals(model.get(kept), fetched.content());
      assertEquals(2, counted.reads() - before, "reads of a warm fetch: the record, the entry");
    }
  }
}
