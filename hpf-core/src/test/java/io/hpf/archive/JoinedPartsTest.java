package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.RecoveryResult;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Part files that hold the parts of several writer threads joined end to end (FORMAT.md "Part
 * file"), as hpf's writer made them on HDFS with {@code concat} before a commit's threads shared
 * one part: read, scanned, verified and recovered across the file headers left inside. The archives
 * were made by that writer and are kept as test resources, since today's writer makes none.
 */
class JoinedPartsTest {
  private static final byte[] MAGIC = "\u0089HPFPART".getBytes(StandardCharsets.ISO_8859_1);

  @TempDir Path temp;

  /** A copy of a kept archive, to read or damage. */
  private Path copy(String resource) throws Exception {
    Path from = Path.of("src/test/resources").resolve(resource);
    Path to = temp.resolve(from.getFileName());
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
    return to;
  }

  /** Offsets of the part file headers in a file. */
  private static java.util.List<Integer> headersIn(byte[] bytes) {
    java.util.List<Integer> at = new java.util.ArrayList<>();
    for (int i = 0; i + MAGIC.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + MAGIC.length, MAGIC, 0, MAGIC.length)) {
        at.add(i);
      }
    }
    return at;
  }

  @Test
  void aJoinedPartReadsScansAndVerifiesAsTheSumOfItsParts() throws Exception {
    Path dir = copy("golden/v5/lz4-joined-parts.hpf");
    Map<String, byte[]> model = GoldenArchives.model();
    Path part;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertEquals(1, reader.manifest().parts().size(), "two writer threads, one part");
      part = dir.resolve(FileNames.partFileName(reader.manifest().parts().get(0).partId()));
      assertEquals(2, headersIn(Files.readAllBytes(part)).size(), "the joined header stays");
      assertEquals(model.size(), reader.entryCount());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), reader.get(e.getKey()), e.getKey());
      }
      Map<String, byte[]> scanned = new TreeMap<>(ArchiveModel::compareUtf8);
      reader.scan((info, content) -> scanned.put(info.name(), content.readAllBytes()));
      assertEquals(new TreeMap<>(model).keySet(), scanned.keySet());
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(model.size(), report.entriesChecked());

    // A joined header is checked as a file header: damaged, the walk names it.
    byte[] bytes = Files.readAllBytes(part);
    int joined = headersIn(bytes).get(1);
    bytes[joined + 8] = 99; // a version no reader knows
    Files.write(part, bytes);
    String problems =
        ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE).problems().toString();
    assertTrue(problems.contains("offset " + joined), problems);
  }

  @Test
  void aCrashAfterTheJoinLosesNothingThatWasWritten() throws Exception {
    // Ten entries committed, then forty more from two threads whose parts were joined before the
    // writer died short of its manifest.
    Path dir = copy("crashed/joined-part-uncommitted.hpf");
    TreeMap<String, byte[]> all = ArchiveModel.random(10, 32);
    ArchiveModel.random(40, 33).forEach((k, v) -> all.put("new/" + k, v));
    // The writer that died left its lock: removed as an operator would once it is gone.
    Files.delete(dir.resolve("hpf.lock"));
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), options())) {
      RecoveryResult recovered = writer.recovery();
      assertEquals(40, recovered.entriesRecovered(), recovered.toString());
    }
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertMatchesModel(reader, all);
    }
    assertTrue(ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE).ok());
  }

  private static WriterOptions options() {
    return WriterOptions.builder().build();
  }
}
