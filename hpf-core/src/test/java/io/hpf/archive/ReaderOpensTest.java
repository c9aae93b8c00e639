package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.testing.ArchiveModel;
import io.hpf.testing.FaultyStorage;
import io.hpf.testing.TestArchives;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What opening costs: listings, file opens, and what a refresh reuses. */
class ReaderOpensTest {
  @TempDir Path temp;

  @Test
  void opensCostOneListingAndExistingNamesFailBeforeTheirContentIsRead() throws Exception {
    Path dir = temp.resolve("o.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(50, 9);
    TestArchives.write(dir, model, WriterOptions.builder().build(), 1);
    FaultyStorage counted = new FaultyStorage(LocalStorage.open(dir), 0);
    try (ArchiveReader reader = ArchiveReader.open(counted)) {
      reader.get(model.firstKey());
    }
    assertEquals(1, counted.listings(), "listings for a fresh reader and its first get");
    // The manifest, the bucket's meta (perfect hash), the record, the entry.
    assertEquals(4, counted.reads(), "reads for a fresh reader and its first get");
    assertEquals(3, counted.opens(), "files opened: manifest, bucket, part");
    counted = new FaultyStorage(LocalStorage.open(dir), 0);
    try (ArchiveWriter writer = ArchiveWriter.open(counted, WriterOptions.builder().build())) {
      assertEquals(1, counted.listings(), "listings to open a writer");
      InputStream never =
          new InputStream() {
            @Override
            public int read() {
              throw new AssertionError("content of an existing name was read");
            }
          };
      NameConflictException e =
          assertThrows(
              NameConflictException.class,
              () -> writer.addStream(model.firstKey(), never, 10, EntryMetadata.of(0), "src"));
      assertEquals(List.of(model.firstKey()), e.names());
      assertEquals(0, writer.pendingEntries());
    }
  }

  @Test
  void refreshReopensOnlyWhatChanged() throws Exception {
    Path dir = temp.resolve("r.hpf");
    TreeMap<String, byte[]> model = ArchiveModel.random(200, 4);
    TestArchives.write(dir, model, WriterOptions.builder().build(), 2);
    FaultyStorage counted = new FaultyStorage(LocalStorage.open(dir), 0);
    ArchiveReader first = ArchiveReader.open(counted);
    for (String name : model.keySet()) {
      first.get(name); // every bucket and part of generation 1 is open now
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(LocalStorage.open(dir), WriterOptions.builder().build())) {
      writer.add("new/entry", new byte[] {42}, EntryMetadata.of(0));
      writer.commit();
    }
    int opensBefore = counted.opens();
    ArchiveReader second = first.refresh();
    assertTrue(second != first);
    first.close(); // the new reader keeps what it shares
    for (String name : model.keySet()) {
      assertArrayEquals(model.get(name), second.get(name), name);
    }
    assertArrayEquals(new byte[] {42}, second.get("new/entry"));
    // The manifest, the new segment's bucket and its part: nothing of generation 1 again.
    assertEquals(3, counted.opens() - opensBefore, "files opened by the refresh and its reads");
    assertTrue(second.refresh() == second, "no newer generation: the same reader");
    second.close();
  }
}
