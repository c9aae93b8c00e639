package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryInfo;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit of more rows than its writer's heap could hold as objects: the rows are sorted in runs
 * on local disk and the index built a region of the hash space at a time. Before, a writer kept
 * every row of a commit in memory (some 450 bytes each), and this commit ran out of its heap.
 */
class SmallHeapWriterTest {
  private static final long ENTRIES = 400_000;

  @TempDir Path temp;

  @Test
  void fourHundredThousandEntriesCommitAndVerifyInA96MiBHeap() throws Exception {
    Path dir = temp.resolve("many.hpf");
    assertEquals("", runSmall(dir, "write"));
    try (ArchiveReader reader = ArchiveReader.open(LocalStorage.open(dir))) {
      assertEquals(ENTRIES, reader.entryCount());
      SplittableRandom random = new SplittableRandom(3);
      for (int i = 0; i < 3_000; i++) {
        long n = random.nextLong(ENTRIES);
        String name = ManyEntriesWriterMain.name(n);
        assertArrayEquals(ManyEntriesWriterMain.content(n), reader.get(name), name);
      }
      assertEquals(null, reader.stat("logs/host-0000/app-none.log"));
      Iterator<EntryInfo> listed = reader.list("logs/host-0123/");
      for (long n = 123_000; n < 124_000; n++) {
        assertEquals(ManyEntriesWriterMain.name(n), listed.next().name());
      }
      assertTrue(!listed.hasNext());
    }
    // The verifier too holds no row past its check (it held every row: about 500 bytes each).
    assertEquals(ENTRIES + " entries checked []", runSmall(dir, "verify").strip());
  }

  /** Runs {@link ManyEntriesWriterMain} in a 96 MiB heap; returns what it printed. */
  private static String runSmall(Path dir, String mode) throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                ManyEntriesWriterMain.class.getName(),
                dir.toString(),
                Long.toString(ENTRIES),
                mode)
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), output);
    return output;
  }
}
