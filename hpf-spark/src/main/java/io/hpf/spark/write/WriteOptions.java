package io.hpf.spark.write;

import io.hpf.archive.PackingRequest;
import io.hpf.archive.WriterOptions;
import io.hpf.format.Codec;
import io.hpf.hadoop.stage.StagedImport;
import io.hpf.manifest.WriterSettings;
import java.io.Serializable;
import java.util.Map;

/**
 * The options of a write, parsed once and checked. Immutable.
 *
 * @param codec how entries are stored (option {@value #CODEC}: zstd, lz4 or none); null for the
 *     archive's (as its writers store new entries; for a new archive zstd on HDFS and other remote
 *     file systems, lz4 on local disk, zstd if a level or solid packing is asked)
 * @param level the zstd level asked for (option {@value #LEVEL}, 1 to 19), or null for the
 *     archive's (3 for a new archive)
 * @param solid pack for size, as {@code hpf create --solid} (option {@value #SOLID})
 * @param replace in an append, names the archive has are replaced instead of failing the write
 *     (option {@value #REPLACE})
 * @param archiveCodec the archive's codec, or null for a new archive or one that records none
 * @param groupBytes the archive's group size, or {@link WriterOptions#ARCHIVE_GROUPS}
 * @param groupEntryMaxBytes the archive's largest grouped entry, or {@link
 *     WriterOptions#ARCHIVE_GROUPS}
 * @param zstdLevel the archive's zstd level (used with archiveCodec only)
 */
public record WriteOptions(
    Codec codec,
    Integer level,
    boolean solid,
    boolean replace,
    Codec archiveCodec,
    int groupBytes,
    int groupEntryMaxBytes,
    int zstdLevel)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String CODEC = "codec";
  public static final String LEVEL = "level";
  public static final String SOLID = "solid";
  public static final String REPLACE = "replace";

  /** The options of a write; a level or solid packing without zstd fails the write now. */
  public static WriteOptions of(Map<String, String> options) {
    PackingRequest asked =
        PackingRequest.parse(
            options.get(CODEC), options.get(LEVEL), options.get(SOLID), LEVEL, SOLID);
    return new WriteOptions(
        asked.codec(),
        asked.zstdLevel(),
        asked.solid(),
        trueOrFalse(options, REPLACE),
        null,
        WriterOptions.ARCHIVE_GROUPS,
        WriterOptions.ARCHIVE_GROUPS,
        WriterSettings.DEFAULT_ZSTD_LEVEL);
  }

  private static boolean trueOrFalse(Map<String, String> options, String key) {
    String value = options.getOrDefault(key, "false");
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(key + " must be true or false, not '" + value + "'");
    }
    return value.equals("true");
  }

  /** What the write asks of packing (checked when the options were parsed). */
  private PackingRequest packing() {
    return new PackingRequest(codec, level, solid, null, null);
  }

  /** These options with the settings of the archive written into (null: none recorded). */
  WriteOptions withArchive(WriterSettings archive) {
    return archive == null
        ? this
        : new WriteOptions(
            codec,
            level,
            solid,
            replace,
            archive.codec(),
            archive.groupBytes(),
            archive.groupEntryMaxBytes(),
            archive.zstdLevel());
  }

  /**
   * The options of the archive's writer at commit: a codec, level or solid packing the write asks
   * for becomes the archive's (recorded in the manifest, as {@code hpf add --codec} does).
   */
  WriterOptions commitOptions() {
    return packing().applyTo(WriterOptions.builder().replace(replace)).build();
  }

  /** The options of a task's own archive ({@link StagedImport#taskOptions}). */
  WriterOptions taskOptions() {
    WriterSettings archive =
        archiveCodec == null
            ? null
            : new WriterSettings(archiveCodec, groupBytes, groupEntryMaxBytes, zstdLevel);
    return StagedImport.taskOptions(packing(), archive);
  }
}
