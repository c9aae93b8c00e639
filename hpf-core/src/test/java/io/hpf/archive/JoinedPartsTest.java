package io.hpf.archive;

import static io.hpf.testing.ArchiveAssertions.assertMatchesModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.JoiningStorage;
import io.hpf.testing.TestArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The part files of one commit joined into one where the storage joins files (FORMAT.md "Part
 * file"): read, scanned, verified and recovered across the file headers left inside.
 */
class JoinedPartsTest {
  @TempDir Path temp;

  private static int headersIn(Path part) throws Exception {
    byte[] bytes = Files.readAllBytes(part);
    byte[] header = "\u0089HPFPART".getBytes(StandardCharsets.ISO_8859_1);
    int count = 0;
    for (int i = 0; i + header.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + header.length, header, 0, header.length)) {
        count++;
      }
    }
    return count;
  }

  @Test
  void thePartsOfACommitAreJoinedIntoOneThatReadsAsTheirSum() throws Exception {
    TreeMap<String, byte[]> model = ArchiveModel.random(600, 31);
    Path dir = temp.resolve("a.hpf");
    JoiningStorage storage = new JoiningStorage(LocalStorage.createDirectories(dir));
    TestArchives.write(storage, model, WriterOptions.builder().build(), 2);
    Path part;
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertEquals(1, reader.manifest().parts().size(), "two writer threads, one part");
      part = dir.resolve(FileNames.partFileName(reader.manifest().parts().get(0).partId()));
      assertEquals(2, headersIn(part), "the second part's header stays where it was joined");
      assertMatchesModel(reader, model);
      Map<String, byte[]> scanned = new TreeMap<>(ArchiveModel::compareUtf8);
      reader.scan((info, content) -> scanned.put(info.name(), content.readAllBytes()));
      assertEquals(model.keySet(), scanned.keySet());
    }
    VerifyReport report = ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE);
    assertTrue(report.ok(), report.problems().toString());
    assertEquals(model.size(), report.entriesChecked());

    // A joined header is checked as a file header: damaged, the walk names it.
    byte[] bytes = Files.readAllBytes(part);
    byte[] magic = "\u0089HPFPART".getBytes(StandardCharsets.ISO_8859_1);
    int joined = -1;
    for (int i = 16; joined < 0 && i + magic.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + magic.length, magic, 0, magic.length)) {
        joined = i;
      }
    }
    bytes[joined + 8] = 99; // a version no reader knows
    Files.write(part, bytes);
    String problems =
        ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE).problems().toString();
    assertTrue(problems.contains("offset " + joined), problems);
  }

  @Test
  void aCrashAfterTheJoinLosesNothingThatWasWritten() throws Exception {
    TreeMap<String, byte[]> first = ArchiveModel.random(100, 32);
    Path dir = temp.resolve("b.hpf");
    TestArchives.write(dir, first, WriterOptions.builder().build(), 1);
    TreeMap<String, byte[]> second = new TreeMap<>(ArchiveModel::compareUtf8);
    ArchiveModel.random(400, 33).forEach((k, v) -> second.put("new/" + k, v));
    JoiningStorage storage = new JoiningStorage(LocalStorage.open(dir));
    storage.crashAtNextCommit();
    assertThrows(Exception.class, () -> appendAll(storage, second));
    // The "dead" writer is this process, whose lock no one may break: remove it as an operator
    // would once the writer's process is gone.
    Files.delete(dir.resolve("hpf.lock"));
    try (ArchiveWriter writer = ArchiveWriter.open(LocalStorage.open(dir), options())) {
      RecoveryResult recovered = writer.recovery();
      assertEquals(second.size(), recovered.entriesRecovered(), recovered.toString());
    }
    TreeMap<String, byte[]> all = new TreeMap<>(ArchiveModel::compareUtf8);
    all.putAll(first);
    all.putAll(second);
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertMatchesModel(reader, all);
    }
    assertTrue(ArchiveVerifier.verify(LocalStorage.open(dir), ProgressListener.NONE).ok());
  }

  private static WriterOptions options() {
    return WriterOptions.builder().build();
  }

  /** Adds every entry from two threads (two parts) and commits. */
  private static void appendAll(JoiningStorage storage, TreeMap<String, byte[]> model)
      throws Exception {
    try (ArchiveWriter writer = ArchiveWriter.open(storage, options())) {
      var entries = new java.util.ArrayList<>(model.entrySet());
      Thread other =
          new Thread(
              () -> {
                try {
                  for (int i = 1; i < entries.size(); i += 2) {
                    writer.add(entries.get(i).getKey(), entries.get(i).getValue(), meta());
                  }
                } catch (java.io.IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      other.start();
      for (int i = 0; i < entries.size(); i += 2) {
        writer.add(entries.get(i).getKey(), entries.get(i).getValue(), meta());
      }
      other.join();
      writer.commit();
    }
  }

  private static EntryMetadata meta() {
    return EntryMetadata.of(1_700_000_000_000L);
  }
}
