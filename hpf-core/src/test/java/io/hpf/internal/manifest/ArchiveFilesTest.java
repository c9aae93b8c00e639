package io.hpf.internal.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.FileNames;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage.StoredFile;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing is not a snapshot: one taken while a writer commits may hold the new manifest yet leave
 * out the segment file made just before it. The files a manifest names are judged by the storage
 * where the listing does not have them.
 */
class ArchiveFilesTest {
  @TempDir Path temp;

  @Test
  void aFileTheListingLeftOutIsAskedForAndOnlyAMissingOneIsAnError() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("a.hpf"));
    try (ArchiveWriter writer = ArchiveWriter.create(storage, WriterOptions.builder().build())) {
      writer.add("a", new byte[] {1, 2, 3}, EntryMetadata.of(0));
      writer.commit();
    }
    List<StoredFile> listing = storage.list();
    Manifest manifest = ManifestStore.read(storage, ManifestStore.newestGeneration(listing));
    String segment = FileNames.segmentFileName(manifest.segments().get(0).segmentId());
    List<StoredFile> withoutSegment =
        listing.stream().filter(f -> !f.name().equals(segment)).toList();
    assertEquals(listing.size() - 1, withoutSegment.size());

    ArchiveFiles.checkPresent(storage, manifest, withoutSegment); // there, though not listed

    Files.delete(storage.directory().resolve(segment));
    FileNotFoundException e =
        assertThrows(
            FileNotFoundException.class,
            () -> ArchiveFiles.checkPresent(storage, manifest, withoutSegment));
    assertTrue(e.getMessage().contains(segment + ": missing"), e.getMessage());
  }
}
