package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpf.format.Codec;
import io.hpf.manifest.WriterSettings;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

/** One rule for what the CLI's flags, MapReduce's settings and Spark's options ask of packing. */
class PackingRequestTest {
  /** The settings a new archive gets from a request. */
  private static WriterSettings resolved(PackingRequest request) {
    return request
        .applyTo(WriterOptions.builder())
        .build()
        .resolve(null, new ArrayList<>())
        .settings();
  }

  @Test
  void whatARequestLeavesOutIsTheArchivesOrTheDefault() {
    assertEquals(new WriterSettings(Codec.ZSTD, 2048, 512, 3), resolved(PackingRequest.ARCHIVES));
    assertEquals(
        new WriterSettings(Codec.ZSTD, 262144, 65536, 10),
        resolved(new PackingRequest(null, null, true, null, null)));
    assertEquals(
        new WriterSettings(Codec.ZSTD, 262144, 65536, 5),
        resolved(new PackingRequest(null, 5, true, null, null)));
    assertEquals(
        new WriterSettings(Codec.ZSTD, 0, 0, 10),
        resolved(new PackingRequest(Codec.ZSTD, null, true, 0, null)));
    assertEquals(
        new WriterSettings(Codec.LZ4, 4096, 512, 3),
        resolved(new PackingRequest(Codec.LZ4, null, false, 4096, null)));
    assertEquals(
        new WriterSettings(Codec.ZSTD, 1024, 1024, 3),
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
}
