package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
