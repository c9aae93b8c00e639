package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first commit of a new archive, whose plan is checked beside the segment's write: what it
 * refuses it refuses as a plan made first would, leaving no file behind, and what it commits counts
 * as a plan made first would count it.
 */
class NewArchiveCommitTest {
  @TempDir Path temp;

  @Test
  void aNameAddedTwiceByTwoThreadsIsRefusedAndLeavesNoFile() throws Exception {
    Storage storage = LocalStorage.createDirectories(temp.resolve("d.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      addMany(writer, "fill/", 3_000);
      Thread other = new Thread(() -> addQuietly(writer, "same/name"));
      other.start();
      writer.add("same/name", bytes("mine"), EntryMetadata.of(0));
      other.join();
      NameConflictException e = assertThrows(NameConflictException.class, writer::commit);
      assertEquals(NameConflictException.Kind.DUPLICATE, e.kind());
      assertEquals(List.of("same/name"), e.names());
    }
    assertEquals(List.of(), storage.list(), "a refused first commit leaves no file");
  }

  @Test
  void aFileThatIsAlsoADirectoryIsRefused() throws Exception {
    Storage storage = LocalStorage.createDirectories(temp.resolve("c.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      addMany(writer, "logs/", 2_000);
      writer.add("logs/x", bytes("a file"), EntryMetadata.of(0));
      writer.add("logs/x/under", bytes("and a directory"), EntryMetadata.of(0));
      NameConflictException e = assertThrows(NameConflictException.class, writer::commit);
      assertEquals(NameConflictException.Kind.CLASH, e.kind());
      assertTrue(e.getMessage().contains("'logs/x'"), e.getMessage());
    }
    assertEquals(List.of(), storage.list(), "a refused first commit leaves no file");
  }

  @Test
  void aFirstCommitCountsItsEntriesAndBytes() throws Exception {
    Storage storage = LocalStorage.createDirectories(temp.resolve("n.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      addMany(writer, "a/", 12_000);
      Generation made = writer.commit();
      assertEquals(12_000, made.liveEntries());
      assertEquals("create 12000 entries", made.operation());
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(12_000, reader.entryCount());
      assertArrayEquals(bytes("entry a/4321"), reader.get("a/4321"));
      long bytes = 0;
      for (var it = reader.list(""); it.hasNext(); ) {
        bytes += it.next().accountedBytes();
      }
      assertEquals(bytes, reader.manifest().liveEntryBytes(), "live bytes, as rows account them");
    }
  }

  private static void addMany(ArchiveWriter writer, String prefix, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      writer.add(prefix + i, bytes("entry " + prefix + i), EntryMetadata.of(0));
    }
  }

  private static void addQuietly(ArchiveWriter writer, String name) {
    try {
      writer.add(name, bytes("theirs"), EntryMetadata.of(0));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
