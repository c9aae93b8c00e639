package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.VerifyReport.Problem;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java verifier's verdict on every archive of the crafted corpus is the expected one. */
class CraftedCorpusTest {
  @TempDir Path dir;

  @Test
  void everyCaseIsJudgedAsExpected() throws Exception {
    for (CraftedCorpus.Case c : CraftedCorpus.write(dir)) {
      VerifyReport report =
          ArchiveVerifier.verify(LocalStorage.open(dir.resolve(c.name())), ProgressListener.NONE);
      String[] verdict = c.verdict().split("\t");
      if (verdict[0].equals("ok")) {
        assertTrue(report.ok(), () -> c.name() + ": " + report.problems());
      } else {
        List<String> messages = report.problems().stream().map(Problem::message).toList();
        assertEquals(1, messages.size(), c.name() + ": " + messages);
        assertTrue(messages.get(0).contains(verdict[1]), c.name() + ": " + messages);
      }
    }
  }

  /**
   * A name whose bytes are not UTF-8 is listed (the byte kept as U+DCFF) and read by the name the
   * listing gives, so one such name never stops a listing (FORMAT.md "Entry names").
   */
  @Test
  void aNameThatIsNotUtf8IsListedAndReadByItsListedName() throws Exception {
    CraftedCorpus.write(dir);
    try (ArchiveReader reader =
        ArchiveReader.openAlone(LocalStorage.open(dir.resolve("name-not-utf8.hpf")))) {
      List<String> names = new java.util.ArrayList<>();
      reader.list("").forEachRemaining(e -> names.add(e.name()));
      assertEquals(List.of("d/\udcff", "e"), names);
      assertArrayEquals(new byte[] {'x'}, reader.get(names.get(0)));
      assertArrayEquals(
          new byte[] {'d', '/', (byte) 0xFF}, io.hpf.internal.format.EntryNames.utf8(names.get(0)));
    }
    // A compaction rewrites the catalog and index from the rows: the name's bytes stay.
    LocalStorage storage = LocalStorage.open(dir.resolve("name-not-utf8.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.open(storage, WriterOptions.builder().build())) {
      writer.add("f", new byte[] {'f'}, EntryMetadata.of(0));
      writer.commit();
      writer.compact(true);
      assertEquals(1, ((Manifest) writer.manifest()).segments().size(), "the two segments merged");
    }
    try (ArchiveReader reader = ArchiveReader.openAlone(storage)) {
      assertArrayEquals(new byte[] {'x'}, reader.get("d/\udcff"));
      assertEquals(3, reader.entryCount());
    }
  }

  @Test
  void bothSidesOfANameClashAreReadByName() throws Exception {
    CraftedCorpus.write(dir);
    try (ArchiveReader reader =
        ArchiveReader.openAlone(LocalStorage.open(dir.resolve("name-clash.hpf")))) {
      assertArrayEquals("the file d/x".getBytes(StandardCharsets.UTF_8), reader.get("d/x"));
      assertArrayEquals("under d/x".getBytes(StandardCharsets.UTF_8), reader.get("d/x/y"));
    }
  }
}
