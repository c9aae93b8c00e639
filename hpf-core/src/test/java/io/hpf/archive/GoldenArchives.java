package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.LocalStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Makes the golden archives checked in under {@code src/test/resources/golden/v<N>/}: small
 * archives of every codec whose content is a pure function of this code, so {@link
 * GoldenArchiveTest} can check that every released format version still reads. Run it only when a
 * new format version is released, into a new {@code v<N>} folder; never regenerate an old one:
 *
 * <pre>
 * mvn -q -pl hpf-core test-compile exec:java ... or from an IDE:
 * java -cp hpf-core/target/classes:hpf-core/target/test-classes:DEPS \
 *     io.hpf.archive.GoldenArchives hpf-core/src/test/resources/golden/v7
 * </pre>
 */
public final class GoldenArchives {
  /**
   * The golden archives of each version: version 2 added padding before entries, version 3 groups
   * of small entries (in every archive with a codec, and many small groups in one), version 4
   * segment files (and an archive of two commits, two segment files, the dictionary in the first),
   * version 5 the same archives, whose manifests record their writer settings. Version 5 also has
   * {@code lz4-joined-parts.hpf}, with the options of {@code lz4.hpf} written by two threads whose
   * parts were joined (JoinedPartsTest), which today's writer, whose threads share one part, no
   * longer makes: it is not in {@link #ARCHIVES}, and never made again. Version 6 records the zstd
   * level in the manifest: the archives of version 5 and {@code zstd-level-10-solid.hpf}, packed as
   * {@code hpf create --solid} packs (zstd level 10, groups of 256 KiB of entries up to 64 KiB).
   */
  static final String[] ARCHIVES_V1 = {"lz4.hpf", "zstd-dictionary.hpf", "none.hpf"};

  static final String[] ARCHIVES_V2 = {
    "lz4.hpf", "zstd-dictionary.hpf", "none.hpf", "none-aligned-1k.hpf"
  };

  static final String[] ARCHIVES_V3 = {
    "lz4.hpf", "zstd-dictionary.hpf", "none.hpf", "none-aligned-1k.hpf", "lz4-small-groups.hpf"
  };

  static final String[] ARCHIVES_V4 = {
    "lz4.hpf",
    "zstd-dictionary.hpf",
    "none.hpf",
    "none-aligned-1k.hpf",
    "lz4-small-groups.hpf",
    "zstd-two-commits.hpf"
  };

  /** Version 5 has the archives of version 4; its manifests record their writer settings. */
  static final String[] ARCHIVES_V5 = ARCHIVES_V4;

  static final String[] ARCHIVES_V6 = {
    "lz4.hpf",
    "zstd-dictionary.hpf",
    "none.hpf",
    "none-aligned-1k.hpf",
    "lz4-small-groups.hpf",
    "zstd-two-commits.hpf",
    "zstd-level-10-solid.hpf",
    "lz4-pilot-dictionary.hpf"
  };

  /**
   * Version 7: the archives of version 6 (their manifests with id marks) and three of chunked
   * content: the model and {@link #chunkedModel()}'s entries of over 1 MiB, one compressed in
   * chunks, one streamed and stored raw in chunks. {@code chunked.hpf}: zstd with the archive's
   * dictionary, chunks of 256 KiB (what writers choose); {@code chunked-lz4-4k.hpf}: lz4, chunks of
   * 4 KiB; {@code chunked-zstd-1m.hpf}: zstd without a dictionary, chunks of 1 MiB (the format's
   * smallest and largest).
   */
  static final String[] ARCHIVES =
      java.util.stream.Stream.concat(
              java.util.stream.Stream.of(
                  "chunked.hpf", "chunked-lz4-4k.hpf", "chunked-zstd-1m.hpf"),
              java.util.Arrays.stream(ARCHIVES_V6))
          .toArray(String[]::new);

  /** The chunk size (log2) each archive of chunked content was written with. */
  static int chunkShift(String archive) {
    if (archive.equals("chunked-lz4-4k.hpf")) {
      return 12;
    }
    return archive.equals("chunked-zstd-1m.hpf") ? 20 : 18;
  }

  private GoldenArchives() {}

  /** The entries of every golden archive: names, content, mtime and attributes. */
  static Map<String, byte[]> model() {
    Map<String, byte[]> model = new LinkedHashMap<>();
    SplittableRandom random = new SplittableRandom(2026);
    model.put("empty", new byte[0]);
    model.put("one", new byte[] {42});
    for (int i = 0; i < 60; i++) {
      String text =
          ("line " + i + " of a log file with some repeated words words words\n").repeat(i + 1);
      model.put("logs/2026/11/app-" + i + ".log", text.getBytes(StandardCharsets.UTF_8));
    }
    byte[] noise = new byte[5000];
    random.nextBytes(noise);
    model.put("bin/noise.bin", noise);
    model.put("unicode/日本語/ファイル.txt", "こんにちは".getBytes(StandardCharsets.UTF_8));
    return model;
  }

  /**
   * The entries {@code chunked.hpf} has besides the model's: log lines numbered from 0, cut at an
   * exact length (a chunk boundary not at the end). {@code big/streamed.log} is added as a stream.
   */
  static Map<String, byte[]> chunkedModel() {
    Map<String, byte[]> big = new LinkedHashMap<>();
    big.put("big/compressed.log", logLines((3 << 19) + 12_345));
    big.put("big/streamed.log", logLines((1 << 20) + 4097));
    return big;
  }

  private static byte[] logLines(int length) {
    StringBuilder text = new StringBuilder(length + 100);
    for (int i = 0; text.length() < length; i++) {
      text.append("line ").append(i).append(" of a big log, in chunks of 64 KiB\n");
    }
    return text.substring(0, length).getBytes(StandardCharsets.UTF_8);
  }

  static EntryMetadata metadata(String name) {
    long mtime = 1_763_000_000_000L + name.length();
    return name.startsWith("bin/")
        ? new EntryMetadata(mtime, 0600, Map.of("content-type", "application/octet-stream"))
        : new EntryMetadata(mtime, 0644, Map.of());
  }

  static WriterOptions options(String archive) {
    // Version 3's archives were made with groups of 32 KiB of entries up to 4 KiB: pinned here, so
    // that they stay what this code makes whatever the defaults become.
    WriterOptions.Builder b = WriterOptions.builder().bucketCapacity(16).groups(32 << 10, 4 << 10);
    if (archive.equals("lz4.hpf")
        || archive.equals("lz4-pilot-dictionary.hpf")
        || archive.equals("chunked-lz4-4k.hpf")) {
      return b.codec(Codec.LZ4).build();
    }
    if (archive.equals("lz4-small-groups.hpf")) {
      return b.codec(Codec.LZ4).groups(1024, 512).build();
    }
    if (archive.equals("none-aligned-1k.hpf")) {
      return b.codec(Codec.NONE).blockAlignment(1024).build();
    }
    if (archive.equals("none.hpf")) {
      return b.codec(Codec.NONE).build();
    }
    if (archive.equals("chunked-zstd-1m.hpf")) {
      return b.codec(Codec.ZSTD).build();
    }
    if (archive.equals("zstd-level-10-solid.hpf")) {
      b.zstdLevel(10).groups(256 << 10, 64 << 10);
    }
    byte[][] samples = model().values().stream().filter(v -> v.length > 100).toArray(byte[][]::new);
    byte[] dict = new byte[4096];
    long n = com.github.luben.zstd.Zstd.trainFromBuffer(samples, dict);
    return b.codec(Codec.ZSTD).dictionary(java.util.Arrays.copyOf(dict, (int) n)).build();
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    for (String archive : ARCHIVES) {
      Path dir = root.resolve(archive);
      if (Files.exists(dir)) {
        continue; // golden archives are never made again: only those missing are made
      }
      // Every bucket's pilots through a dictionary (perfect-hash encoding 2).
      System.setProperty(
          io.hpf.internal.index.PerfectHash.PILOT_DICTIONARY_PROPERTY,
          String.valueOf(archive.equals("lz4-pilot-dictionary.hpf")));
      System.setProperty(
          io.hpf.internal.format.ChunkedEncoder.GOLDEN_SHIFT_PROPERTY,
          String.valueOf(chunkShift(archive)));
      LocalStorage storage = LocalStorage.createDirectories(dir);
      boolean twoCommits = archive.equals("zstd-two-commits.hpf");
      Map<String, byte[]> model = model();
      try (ArchiveWriter writer = ArchiveWriter.create(storage, options(archive))) {
        int added = 0;
        for (Map.Entry<String, byte[]> e : model.entrySet()) {
          writer.add(e.getKey(), e.getValue(), metadata(e.getKey()));
          if (twoCommits && ++added == model.size() / 2) {
            writer.commit();
          }
        }
        if (archive.startsWith("chunked")) {
          for (Map.Entry<String, byte[]> e : chunkedModel().entrySet()) {
            if (e.getKey().equals("big/streamed.log")) {
              writer.addStream(
                  e.getKey(),
                  new java.io.ByteArrayInputStream(e.getValue()),
                  e.getValue().length,
                  metadata(e.getKey()),
                  e.getKey());
            } else {
              writer.add(e.getKey(), e.getValue(), metadata(e.getKey()));
            }
          }
        }
        writer.commit();
      }
    }
  }
}
