package io.hpf.spark.write;

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
 *     archive's (as its writers store new entries; zstd for a new archive)
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
    boolean replace,
    Codec archiveCodec,
    int groupBytes,
    int groupEntryMaxBytes,
    int zstdLevel)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String CODEC = "codec";
  public static final String REPLACE = "replace";

  public static WriteOptions of(Map<String, String> options) {
    String codec = options.get(CODEC);
    String replace = options.getOrDefault(REPLACE, "false");
    if (!replace.equals("true") && !replace.equals("false")) {
      throw new IllegalArgumentException(REPLACE + " must be true or false, not '" + replace + "'");
    }
    return new WriteOptions(
        codec == null ? null : Codec.parse(codec),
        Boolean.parseBoolean(replace),
        null,
        WriterOptions.ARCHIVE_GROUPS,
        WriterOptions.ARCHIVE_GROUPS,
        WriterSettings.DEFAULT_ZSTD_LEVEL);
  }

  /** These options with the settings of the archive written into (null: none recorded). */
  WriteOptions withArchive(WriterSettings archive) {
    return archive == null
        ? this
        : new WriteOptions(
            codec,
            replace,
            archive.codec(),
            archive.groupBytes(),
            archive.groupEntryMaxBytes(),
            archive.zstdLevel());
  }

  /**
   * The options of the archive's writer at commit: a codec the write names becomes the archive's
   * (recorded in the manifest, as {@code hpf add --codec} does).
   */
  WriterOptions commitOptions() {
    return WriterOptions.builder().replace(replace).codec(codec).build();
  }

  /** The options of a task's own archive ({@link StagedImport#taskOptions}). */
  WriterOptions taskOptions() {
    WriterSettings archive =
        archiveCodec == null
            ? null
            : new WriterSettings(archiveCodec, groupBytes, groupEntryMaxBytes, zstdLevel);
    return StagedImport.taskOptions(codec, archive);
  }
}
