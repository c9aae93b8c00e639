package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.format.EntryInfo;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Archives written by released format versions still read, byte for byte. */
class GoldenArchiveTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "v1/lz4.hpf",
        "v1/zstd-dictionary.hpf",
        "v1/none.hpf",
        "v2/lz4.hpf",
        "v2/zstd-dictionary.hpf",
        "v2/none.hpf",
        "v2/none-aligned-1k.hpf"
      })
  void goldenArchiveReads(String archive) throws Exception {
    LocalStorage storage = LocalStorage.open(GOLDEN.resolve(archive));
    Map<String, byte[]> model = GoldenArchives.model();
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(model.size(), reader.entryCount());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
        EntryInfo info = reader.stat(e.getKey());
        EntryMetadata expected = GoldenArchives.metadata(e.getKey());
        assertEquals(expected.mtimeMillis(), info.mtimeMillis());
        assertEquals(expected.mode(), info.mode());
        assertEquals(expected.attributes(), info.attributes());
      }
    }
    VerifyReport report = ArchiveVerifier.verify(storage, ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
  }
}
