package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.archive.model.WriterOptions.ArchiveSetting;
import io.hpf.store.LocalStorage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's options: the settings an archive records are empty ("the archive's") until asked,
 * and a writer resolves them against its archive; the rest have their defaults.
 */
class WriterOptionsTest {
  @TempDir Path temp;

  @Test
  void theArchivesSettingsAreTheArchivesUntilAskedAndTheRestHaveTheirDefaults() {
    WriterOptions o = WriterOptions.builder().build();
    assertEquals(Optional.empty(), o.codec());
    assertEquals(OptionalInt.empty(), o.zstdLevel());
    assertEquals(Optional.empty(), o.groups());
    assertEquals(OptionalInt.empty(), o.bucketCapacity());
    assertEquals(OptionalLong.empty(), o.blockAlignment());
    assertEquals(WriterOptions.DEFAULT_MAX_PART_BYTES, o.maxPartBytes());
    assertEquals(WriterOptions.DEFAULT_GRACE_PERIOD_MILLIS, o.gracePeriodMillis());
    assertThrows(IllegalStateException.class, o::settings);
    WriterOptions asked =
        WriterOptions.builder()
            .codec(Codec.LZ4)
            .groups(1024, 512)
            .bucketCapacity(64)
            .keepArchive(ArchiveSetting.CODEC, ArchiveSetting.BUCKET_CAPACITY)
            .build();
    assertEquals(Optional.empty(), asked.codec());
    assertEquals(Optional.of(new WriterOptions.Groups(1024, 512)), asked.groups());
    assertEquals(OptionalInt.empty(), asked.bucketCapacity());
  }

  @Test
  void aWriterKeepsWhatItWasNotAskedToChangeAndSaysWhatItChanges() throws Exception {
    LocalStorage storage = LocalStorage.createDirectories(temp.resolve("a.hpf"));
    WriterOptions created = WriterOptions.builder().codec(Codec.NONE).bucketCapacity(16).build();
    try (ArchiveWriter w = ArchiveWriter.create(storage, created)) {
      w.add("x", new byte[] {1}, EntryMetadata.of(0));
      w.commit();
    }
    WriterOptions lz4 = WriterOptions.builder().codec(Codec.LZ4).zstdLevel(3).build();
    assertThrows(
        IllegalArgumentException.class, () -> lz4.toBuilder().dictionary(new byte[8]).build());
    try (ArchiveWriter w = ArchiveWriter.open(storage, WriterOptions.builder().build())) {
      assertEquals(List.of(), w.settingChanges());
      assertEquals(Codec.NONE, w.options().settings().codec());
      assertEquals(OptionalInt.of(16), w.options().bucketCapacity());
    }
    WriterOptions changing = WriterOptions.builder().codec(Codec.LZ4).groups(0, 0).build();
    try (ArchiveWriter w = ArchiveWriter.open(storage, changing)) {
      ArchiveSettings s = w.options().settings();
      assertEquals(Codec.LZ4, s.codec());
      assertEquals(0, s.groupBytes());
      assertEquals(1, w.settingChanges().size(), w.settingChanges().toString());
      assertTrue(w.settingChanges().get(0).contains("-> lz4"), w.settingChanges().get(0));
    }
  }

  @Test
  void toBuilderKeepsEveryField() {
    WriterOptions o =
        WriterOptions.builder()
            .solid()
            .dictionary(new byte[] {7})
            .maxPartBytes(1 << 20)
            .streamThresholdBytes(1 << 10)
            .replace(true)
            .breakLock(true)
            .blockAlignment(4096)
            .autoCompact(false)
            .maxSegments(3)
            .reclaimRatio(0.25)
            .gracePeriodMillis(5)
            .build();
    WriterOptions copy = o.toBuilder().build();
    assertEquals(o.codec(), copy.codec());
    assertEquals(o.zstdLevel(), copy.zstdLevel());
    assertEquals(o.groups(), copy.groups());
    assertArrayEquals(o.dictionary(), copy.dictionary());
    assertEquals(
        List.of(1L << 20, 1L << 10, 4096L, 3L, 5L),
        List.of(
            copy.maxPartBytes(),
            copy.streamThresholdBytes(),
            copy.blockAlignment().getAsLong(),
            (long) copy.maxSegments(),
            copy.gracePeriodMillis()));
    assertEquals(
        List.of(true, true, false, 0.25),
        List.of(copy.replace(), copy.breakLock(), copy.autoCompact(), copy.reclaimRatio()));
  }
}
