package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.index.BucketDescriptor;
import io.hpf.manifest.Manifest;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings an archive keeps in its manifest hold for later writers unless they change them. */
class ArchiveSettingsTest {
  @TempDir Path temp;

  private static void addNumbered(ArchiveWriter writer, String prefix, int count) throws Exception {
    for (int i = 0; i < count; i++) {
      writer.add(prefix + i, new byte[] {(byte) i}, EntryMetadata.of(0));
    }
    writer.commit();
  }

  private static int largestBucket(Manifest.SegmentRef segment) {
    return segment.directory().buckets().stream()
        .mapToInt(BucketDescriptor::keyCount)
        .max()
        .orElse(0);
  }

  @Test
  void laterWritersKeepTheArchivesBucketCapacityUnlessTold() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("s.hpf"));
    WriterOptions.Builder noCompaction = WriterOptions.builder().autoCompact(false);
    try (ArchiveWriter writer =
        ArchiveWriter.create(storage, noCompaction.bucketCapacity(100).build())) {
      addNumbered(writer, "a", 1000);
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().autoCompact(false).build())) {
      assertEquals(List.of(), writer.settingChanges());
      addNumbered(writer, "b", 1000);
      Manifest.SegmentRef added = writer.manifest().segments().get(1);
      assertTrue(largestBucket(added) <= 100, "bucket of " + largestBucket(added));
      assertEquals(100, writer.manifest().bucketCapacity());
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage, WriterOptions.builder().autoCompact(false).bucketCapacity(5000).build())) {
      assertEquals(
          List.of("bucket capacity 100 -> 5000 for new segments"), writer.settingChanges());
      addNumbered(writer, "c", 1000);
      assertEquals(5000, writer.manifest().bucketCapacity());
      assertEquals(1, writer.manifest().segments().get(2).directory().buckets().size());
    }
  }
}
