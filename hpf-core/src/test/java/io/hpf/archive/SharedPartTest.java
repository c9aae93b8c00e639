package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Generation;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.ForwardingStorage;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.TestArchives;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where files are costly (HDFS: each file and block is a NameNode object) the writer threads of a
 * commit share one part file, each compressing on its own, so a commit makes one part per part
 * size, not one per thread. Here on local disk told to prefer few files.
 */
class SharedPartTest {
  @TempDir Path temp;

  private static Storage fewFiles(Path dir) throws Exception {
    return new ForwardingStorage(LocalStorage.createDirectories(dir)) {
      @Override
      public boolean prefersFewFiles() {
        return true;
      }
    };
  }

  @Test
  void fourThreadsWriteOnePartThatReadsAsTheModel() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(3000, 41);
    Path dir = temp.resolve("one.hpf");
    TestArchives.write(fewFiles(dir), model, WriterOptions.builder().build(), 4);
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertEquals(1, reader.manifest().parts().size());
      assertMatchesModel(reader, model);
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(model.size(), report.entriesChecked());
  }

  @Test
  void aFullPartGetsNoNewWriterAndEveryPartButTheLastIsFull() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(3000, 42);
    long max = 256 << 10;
    Path dir = temp.resolve("many.hpf");
    for (String codec : List.of("zstd", "none")) {
      Path at = dir.resolveSibling(codec + ".hpf");
      WriterOptions.Builder options = WriterOptions.builder().maxPartBytes(max);
      if (codec.equals("none")) {
        options.codec(io.hpf.archive.model.Codec.NONE);
      }
      TestArchives.write(fewFiles(at), model, options.build(), 4);
      try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(at))) {
        List<Generation.Part> parts = reader.manifest().parts();
        long total = parts.stream().mapToLong(Generation.Part::committedLength).sum();
        assertTrue(parts.size() > 1, codec + ": " + parts);
        assertTrue(parts.size() <= total / max + 1, codec + ": more parts than sizes: " + parts);
        int full = 0;
        for (Generation.Part p : parts) {
          full += p.committedLength() >= max ? 1 : 0;
        }
        assertTrue(full >= parts.size() - 1, codec + ": parts under the size: " + parts);
        assertMatchesModel(reader, model);
      }
    }
  }
}
