package io.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.NameConflictException;
import io.hpf.internal.format.EntryNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows sorted within a small memory: runs on disk merged, against a sort of the same rows. */
class RowSorterTest {
  /** A row with every field set from {@code i}: a group member, attributes, a unicode name. */
  /** A row of every kind of field: attributes, codecs, negative times, group members. */
  static EntryInfo row(String name, int i) {
    Map<String, String> attributes = new LinkedHashMap<>();
    if (i % 3 == 0) {
      attributes.put("k" + i, "välue " + i);
    }
    boolean grouped = i % 2 == 0;
    return new EntryInfo(
        name,
        false,
        i,
        i / 2 + 1,
        i % 5 == 0 ? Codec.ZSTD : Codec.LZ4,
        i % 7,
        1_700_000_000_000L + i * 1000L - (i % 11 == 0 ? 5_000_000_000_000L : 0),
        0644 + (i % 2),
        attributes,
        1 + i % 4,
        16L + i * 100L,
        90 + i,
        grouped ? i % 3 : 0,
        grouped ? 3 : 0);
  }

  private static String randomName(SplittableRandom random) {
    String[] parts = {"a", "b", "ü", "dir", "日本", "x-y", "x.y", "x"};
    StringBuilder name = new StringBuilder();
    int depth = 1 + random.nextInt(4);
    for (int d = 0; d < depth; d++) {
      name.append(d == 0 ? "" : "/").append(parts[random.nextInt(parts.length)]);
    }
    return name.append('-').append(random.nextInt(1_000_000)).toString();
  }

  private static List<SegmentBuilder.Row> read(SortedRows rows) throws IOException {
    List<SegmentBuilder.Row> out = new ArrayList<>();
    try (SortedRows.Cursor cursor = rows.open()) {
      for (SegmentBuilder.Row r = cursor.next(); r != null; r = cursor.next()) {
        out.add(r);
      }
    }
    return out;
  }

  /** Runs in a scratch directory (beside its lock file). */
  private static long countRuns(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.filter(f -> f.getFileName().toString().startsWith("run-")).count();
    }
  }

  @Test
  void rowsComeBackSortedWholeAndReadTwiceThroughRunsOnDisk() throws Exception {
    SplittableRandom random = new SplittableRandom(42);
    List<EntryInfo> added = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      added.add(row(randomName(random) + "#" + i, i));
    }
    RowSorter sorter = new RowSorter(64 << 10); // a run every few hundred rows
    long bytes = 0;
    for (EntryInfo e : added) {
      sorter.add(e);
      bytes += e.accountedBytes();
    }
    assertTrue(sorter.runCount() > 20, sorter.runCount() + " runs");
    List<EntryInfo> expected = new ArrayList<>(added);
    expected.sort(Comparator.comparing(e -> EntryNames.utf8(e.name()), Arrays::compareUnsigned));
    try (SortedRows rows = sorter.finish()) {
      assertEquals(added.size(), rows.size());
      assertEquals(bytes, rows.accountedBytes());
      for (int pass = 0; pass < 2; pass++) {
        List<SegmentBuilder.Row> sorted = read(rows);
        assertEquals(expected, sorted.stream().map(SegmentBuilder.Row::info).toList());
        for (SegmentBuilder.Row r : sorted) {
          assertTrue(Arrays.equals(EntryNames.utf8(r.info().name()), r.nameUtf8()));
        }
      }
      assertEquals(sorter.runCount(), countRuns(sorter.runDirectory()), "runs stay until closed");
    }
    assertFalse(Files.exists(sorter.runDirectory()), "closing deletes the runs");
  }

  @Test
  void aNameAddedTwiceIsFoundWhenItsRowsLieInDifferentRuns() throws Exception {
    RowSorter sorter = new RowSorter(16 << 10);
    sorter.add(row("dup/name", 1));
    for (int i = 0; i < 2_000; i++) {
      sorter.add(row("filler/" + i, i));
    }
    sorter.add(row("dup/name", 2));
    sorter.add(row("dup", 3)); // also a file where dup/name needs a directory
    assertTrue(sorter.runCount() > 2);
    try (SortedRows rows = sorter.finish()) {
      NameConflictException e =
          assertThrows(
              NameConflictException.class,
              () -> CommitPlan.of("t.hpf", rows, List.of(), null, CommitPlan.Lookup.NONE, false));
      assertTrue(e.getMessage().contains("dup/name"), e.getMessage());
    }
  }

  @Test
  void aFileThatIsAlsoADirectoryIsFoundAcrossRuns() throws Exception {
    RowSorter sorter = new RowSorter(16 << 10);
    sorter.add(row("logs/a/b", 1));
    for (int i = 0; i < 2_000; i++) {
      sorter.add(row("logs/a-" + i, i)); // sort between logs/a and logs/a/b
    }
    sorter.add(row("logs/a", 2));
    try (SortedRows rows = sorter.finish()) {
      NameConflictException e =
          assertThrows(
              NameConflictException.class,
              () -> CommitPlan.of("t.hpf", rows, List.of(), null, CommitPlan.Lookup.NONE, false));
      assertTrue(e.getMessage().contains("'logs/a'"), e.getMessage());
    }
  }

  /**
   * A run that cannot be written fails the add that filled the memory, every add after it and the
   * sort: a commit of rows that were not all kept is never made.
   */
  @Test
  void aRunThatCannotBeWrittenFailsTheAddAndTheCommit(@TempDir Path temp) throws Exception {
    Path notADirectory = Files.writeString(temp.resolve("file"), "x");
    RowSorter sorter = new RowSorter(4 << 10, notADirectory);
    int added = 0;
    IOException failed = null;
    while (failed == null) {
      try {
        sorter.add(row("r/" + added, added));
        added++;
      } catch (IOException e) {
        failed = e;
      }
    }
    assertTrue(added > 10 && added < 100, added + " rows added before the run");
    IOException again = assertThrows(IOException.class, () -> sorter.add(row("r/next", 1)));
    assertTrue(again.getMessage().startsWith("the rows of a commit could not be sorted"));
    assertThrows(IOException.class, sorter::finish);
  }
}
