package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One rule for what the CLI's flags, MapReduce's settings and Spark's options ask of packing. */
class PackingRequestTest {
  @TempDir static Path temp;

  /** The settings a new archive on local disk gets from a request. */
  private static ArchiveSettings resolved(PackingRequest request) throws IOException {
    return request
        .applyTo(WriterOptions.builder())
        .build()
        .resolveForNew(LocalStorage.createDirectories(temp.resolve("new.hpf")))
        .settings();
  }

  @Test
  void whatARequestLeavesOutIsTheArchivesOrTheDefault() throws IOException {
    assertEquals(new ArchiveSettings(Codec.LZ4, 2048, 512, 3), resolved(PackingRequest.ARCHIVES));
    // A level alone asks a new archive for zstd: there is no codec of its own to keep.
    assertEquals(
        new ArchiveSettings(Codec.ZSTD, 2048, 512, 7),
        resolved(new PackingRequest(null, 7, false, null, null)));
    assertEquals(
        new ArchiveSettings(Codec.ZSTD, 262144, 65536, 10),
        resolved(new PackingRequest(null, null, true, null, null)));
    assertEquals(
        new ArchiveSettings(Codec.ZSTD, 262144, 65536, 5),
        resolved(new PackingRequest(null, 5, true, null, null)));
    assertEquals(
        new ArchiveSettings(Codec.ZSTD, 0, 0, 10),
        resolved(new PackingRequest(Codec.ZSTD, null, true, 0, null)));
    assertEquals(
        new ArchiveSettings(Codec.LZ4, 4096, 512, 3),
        resolved(new PackingRequest(Codec.LZ4, null, false, 4096, null)));
    assertEquals(
        new ArchiveSettings(Codec.LZ4, 1024, 1024, 3),
        resolved(new PackingRequest(null, null, false, 1024, 8192)));
  }

  @Test
  void aLevelOrSolidPackingWithoutZstdIsRefused() {
    for (Codec codec : new Codec[] {Codec.LZ4, Codec.NONE}) {
      IllegalArgumentException level =
          assertThrows(
              IllegalArgumentException.class,
              () -> new PackingRequest(codec, 9, false, null, null));
      assertEquals(
          "solid packing and zstd levels need the zstd codec, not " + codec.displayName(),
          level.getMessage());
      assertThrows(
          IllegalArgumentException.class, () -> new PackingRequest(codec, null, true, null, null));
    }
  }

  @Test
  void aRequestGivenAsTextIsParsedOrRefusedNamingTheSetting() {
    assertEquals(
        new PackingRequest(Codec.ZSTD, 9, true, null, null),
        PackingRequest.parse("zstd", " 9", "true", "level", "solid"));
    assertEquals(PackingRequest.ARCHIVES, PackingRequest.parse(null, null, null, "l", "s"));
    String[][] bad = {
      {"lz4", "9", null, "solid packing and zstd levels need the zstd codec, not lz4"},
      {null, "high", null, "x.level must be a number, not 'high'"},
      {null, "0", null, "zstd level must be 1 to 19: 0"},
      {null, null, "yes", "x.solid must be true or false, not 'yes'"},
      {"gzip", null, null, "unknown codec 'gzip'"}
    };
    for (String[] b : bad) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> PackingRequest.parse(b[0], b[1], b[2], "x.level", "x.solid"));
      assertTrue(e.getMessage().startsWith(b[3]), e.getMessage());
    }
  }
}
