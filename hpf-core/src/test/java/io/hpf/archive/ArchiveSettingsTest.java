package io.hpf.archive;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.index.BucketDescriptor;
import io.hpf.internal.manifest.Manifest;
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
      Manifest.SegmentRef added = ((Manifest) writer.manifest()).segments().get(1);
      assertTrue(largestBucket(added) <= 100, "bucket of " + largestBucket(added));
      assertEquals(100, ((Manifest) writer.manifest()).bucketCapacity());
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage, WriterOptions.builder().autoCompact(false).bucketCapacity(5000).build())) {
      assertEquals(
          List.of("bucket capacity 100 -> 5000 for new segments"), writer.settingChanges());
      addNumbered(writer, "c", 1000);
      assertEquals(5000, ((Manifest) writer.manifest()).bucketCapacity());
      assertEquals(
          1, ((Manifest) writer.manifest()).segments().get(2).directory().buckets().size());
    }
  }

  private static final byte[] TEXT =
      "a line that compresses well, a line that compresses well\n".repeat(20).getBytes(UTF_8);

  @Test
  void laterWritersKeepTheArchivesCodecAndGroupsUnlessTold() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("c.hpf"));
    WriterOptions.Builder noCompaction = WriterOptions.builder().autoCompact(false);
    try (ArchiveWriter writer =
        ArchiveWriter.create(storage, noCompaction.codec(Codec.NONE).groups(0, 0).build())) {
      writer.add("a", TEXT, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().autoCompact(false).build())) {
      assertEquals(List.of(), writer.settingChanges());
      assertEquals(new ArchiveSettings(Codec.NONE, 0, 0), writer.options().settings());
      writer.add("b", TEXT, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(Codec.NONE, reader.stat("b").codec(), "a later writer compressed");
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage,
            WriterOptions.builder()
                .autoCompact(false)
                .codec(Codec.LZ4)
                .groups(4096, 256)
                .build())) {
      assertEquals(
          List.of(
              "none, no groups -> lz4, groups of 4096 bytes of entries up to 256 for new entries"),
          writer.settingChanges());
      writer.add("c", TEXT, EntryMetadata.of(0));
      writer.add("d", new byte[] {1, 2, 3}, EntryMetadata.of(0));
      writer.commit();
      assertEquals(new ArchiveSettings(Codec.LZ4, 4096, 256), writer.manifest().writerSettings());
    }
    try (ArchiveWriter writer =
            ArchiveWriter.open(storage, WriterOptions.builder().autoCompact(false).build());
        ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(List.of(), writer.settingChanges());
      assertEquals(Codec.LZ4, reader.stat("c").codec());
      assertTrue(reader.stat("d").inGroup(), "the small entry went into a group");
    }
  }

  /** The stored length of a zstd entry: one frame at {@code level}, no dictionary. */
  private static long frameLength(byte[] content, int level) {
    return com.github.luben.zstd.Zstd.compress(content, level).length;
  }

  @Test
  void laterWritersKeepTheArchivesZstdLevelUnlessTold() throws Exception {
    byte[] first = io.hpf.testing.ArchiveModel.words(1, 40_000);
    byte[] second = io.hpf.testing.ArchiveModel.words(2, 40_000);
    assertTrue(frameLength(second, 9) < frameLength(second, 3), "the levels differ on this text");
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("z.hpf"));
    try (ArchiveWriter writer =
        ArchiveWriter.create(
            storage, WriterOptions.builder().autoCompact(false).zstdLevel(9).build())) {
      writer.add("first", first, EntryMetadata.of(0));
      writer.commit();
      assertEquals(9, writer.manifest().writerSettings().zstdLevel());
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().autoCompact(false).build())) {
      assertEquals(List.of(), writer.settingChanges());
      writer.add("second", second, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage, WriterOptions.builder().autoCompact(false).zstdLevel(3).build())) {
      assertEquals(
          List.of(
              "zstd level 9, groups of 2048 bytes of entries up to 512 -> zstd level 3, groups of"
                  + " 2048 bytes of entries up to 512 for new entries"),
          writer.settingChanges());
      writer.add("third", second, EntryMetadata.of(0));
      writer.commit();
    }
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(frameLength(first, 9), reader.stat("first").storedLength());
      assertEquals(frameLength(second, 9), reader.stat("second").storedLength(), "kept level 9");
      assertEquals(frameLength(second, 3), reader.stat("third").storedLength());
      assertEquals(3, reader.manifest().writerSettings().zstdLevel());
      assertTrue(java.util.Arrays.equals(second, reader.get("second")));
    }
  }

  @Test
  void aLevelAskedOfAnArchiveOfAnotherCodecIsRefusedUnlessZstdIsAskedToo() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("l.hpf"));
    try (ArchiveWriter writer =
        ArchiveWriter.create(storage, WriterOptions.builder().codec(Codec.LZ4).build())) {
      writer.add("a", TEXT, EntryMetadata.of(0));
      writer.commit();
    }
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () -> ArchiveWriter.open(storage, WriterOptions.builder().zstdLevel(9).build()));
    assertEquals(
        "a zstd level needs the zstd codec; this archive's new entries are lz4 (ask for zstd with"
            + " it)",
        e.getMessage());
    try (ArchiveWriter writer =
        ArchiveWriter.open(
            storage, WriterOptions.builder().codec(Codec.ZSTD).zstdLevel(9).build())) {
      writer.add("b", TEXT, EntryMetadata.of(0));
      writer.commit();
      assertEquals(
          new ArchiveSettings(Codec.ZSTD, 2048, 512, 9), writer.manifest().writerSettings());
    }
  }

  @Test
  void levelsOutsideOneToNineteenAreRefused() {
    for (int level : new int[] {-1, 20, 22}) {
      IllegalArgumentException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              IllegalArgumentException.class,
              () -> WriterOptions.builder().zstdLevel(level).build());
      assertEquals("zstd level must be 1 to 19: " + level, e.getMessage());
    }
  }

  @Test
  void anArchiveOfVersion4GetsTheWritersSettingsRecorded() throws Exception {
    Path dir = temp.resolve("v4.hpf");
    GoldenArchiveTest.copyGolden("v4", "none.hpf", dir);
    LocalStorage storage = LocalStorage.open(dir);
    try (ArchiveReader reader = ArchiveReader.open(storage)) {
      assertEquals(null, reader.manifest().writerSettings());
    }
    try (ArchiveWriter writer =
        ArchiveWriter.open(storage, WriterOptions.builder().autoCompact(false).build())) {
      assertEquals(List.of(), writer.settingChanges()); // nothing recorded to change
      writer.add("new", TEXT, EntryMetadata.of(0));
      writer.commit();
      // zstd, as the writers of versions 1 to 4 stored entries, not a new archive's lz4.
      assertEquals(
          new ArchiveSettings(
              Codec.ZSTD,
              WriterOptions.DEFAULT_GROUP_BYTES,
              WriterOptions.DEFAULT_GROUP_ENTRY_MAX_BYTES),
          writer.manifest().writerSettings());
    }
  }
}
