package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.io.ReadAheadFile;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Entries one byte below, at and above every size at which the code changes how it reads or writes:
 * the 4 KiB header probe, the 1 MiB whole-content and per-thread buffer limits, the 8 MiB
 * read-ahead window, the 16 MiB one-read limit, and 64 MiB (content returned whole; sources
 * streamed and stored raw). Every path gives the model's bytes.
 */
class ThresholdSizesTest {
  @TempDir Path temp;

  private static final int[] THRESHOLDS = {
    4096, 1 << 20, ReadAheadFile.WINDOW_BYTES, 16 << 20, EntryReader.MAX_WHOLE_BYTES
  };

  @ParameterizedTest
  @EnumSource(
      value = Codec.class,
      names = {"NONE", "ZSTD"})
  void everyPathReadsEntriesAroundEveryThreshold(Codec codec) throws Exception {
    TreeMap<String, byte[]> model = new TreeMap<>(ArchiveModel::compareUtf8);
    SplittableRandom random = new SplittableRandom(codec.ordinal());
    for (int threshold : THRESHOLDS) {
      for (int delta = -1; delta <= 1; delta++) {
        int size = threshold + delta;
        byte[] content = new byte[size];
        if (codec == Codec.NONE) {
          random.nextBytes(content);
        } else {
          // Compressible: a few random bytes repeated, so zstd stores it compressed.
          for (int i = 0; i < size; i++) {
            content[i] = (byte) ('a' + (i * 7 + (i >> 10)) % 23);
          }
        }
        model.put("t" + threshold + "/size-" + size, content);
      }
    }
    Path dir = temp.resolve(codec.name() + ".hpf");
    LocalStorage storage =
        TestArchives.write(dir, model, WriterOptions.builder().codec(codec).build(), 2);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        byte[] expected = e.getValue();
        if (expected.length <= EntryReader.MAX_WHOLE_BYTES) {
          assertArrayEquals(expected, reader.get(e.getKey()), e.getKey());
        } else {
          assertThrows(IllegalStateException.class, () -> reader.get(e.getKey()));
        }
        try (InputStream in = reader.openStream(e.getKey())) {
          assertArrayEquals(expected, in.readAllBytes(), e.getKey());
        }
        assertEquals(expected.length, reader.stat(e.getKey()).rawLength());
      }
      int[] seen = {0};
      reader.scan(
          (info, content) -> {
            assertArrayEquals(model.get(info.name()), content.readAllBytes(), info.name());
            seen[0]++;
          });
      assertEquals(model.size(), seen[0]);
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(model.size(), report.entriesChecked());
  }
}
