package io.hpf.internal.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment whose index is built on a thread of its own while its catalog is written ({@link
 * IndexAhead}) is, byte for byte, the segment whose index is built after the catalog: its buckets
 * are moved into place, their descriptors with them.
 */
class SegmentBuilderTest {
  @TempDir Path temp;

  @Test
  void anIndexBuiltAheadGivesTheSameFileAsOneBuiltAfterTheCatalog() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("s.hpf"));
    List<SegmentBuilder.Row> rows = new ArrayList<>();
    for (int i = 0; i < 30_000; i++) {
      String name = String.format(java.util.Locale.ROOT, "dir%02d/name-%06d", i % 37, i);
      rows.add(SegmentBuilder.Row.of(i % 13 == 0 ? EntryInfo.tombstone(name) : row(name, i)));
    }
    SegmentBuilder.sortByName(rows);
    // Buckets of at most 4,096 records: several, over several regions of the hash space.
    SegmentBuilder.Written after =
        SegmentBuilder.write(storage, 1, SortedRows.of(rows), 4096, List.of(), false);
    SegmentBuilder.Written ahead =
        SegmentBuilder.write(storage, 2, SortedRows.of(rows), 4096, List.of(), true);

    assertTrue(after.segment().directory().bucketCount() > 4, "buckets: several");
    assertEquals(after.segment().directory(), ahead.segment().directory());
    assertEquals(after.segment().fileLength(), ahead.segment().fileLength());
    assertArrayEquals(
        Files.readAllBytes(storage.directory().resolve(FileNames.segmentFileName(1))),
        Files.readAllBytes(storage.directory().resolve(FileNames.segmentFileName(2))));
  }

  /** Rows that break the order (the plan refuses them first) fail either way, the same way. */
  @Test
  void rowsOutOfOrderFailTheSegmentWithTheIndexAheadOrNot() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("d.hpf"));
    List<SegmentBuilder.Row> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      rows.add(SegmentBuilder.Row.of(row("n" + i, i)));
    }
    rows.add(SegmentBuilder.Row.of(row("n777", 1)));
    SegmentBuilder.sortByName(rows);
    for (int segment = 1; segment <= 2; segment++) {
      int id = segment;
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  SegmentBuilder.write(
                      storage, id, SortedRows.of(rows), 65536, List.of(), id == 2));
      assertTrue(e.getMessage().contains("n777"), e.getMessage());
    }
  }

  private static EntryInfo row(String name, int i) {
    return RowSorterTest.row(name, i);
  }
}
