package io.hpf.spark.write;

import io.hpf.archive.PackingRequest;
import io.hpf.archive.model.ArchiveSettings;
import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.EngineKeys;
import io.hpf.hadoop.stage.StagedImport;
import java.io.Serializable;
import java.util.Map;

/**
 * The options of a write, parsed once and checked. Immutable; sent to the tasks.
 *
 * @param packing what the write asks of packing: options {@value #CODEC} (zstd, lz4 or none),
 *     {@value #LEVEL} (the zstd level, 1 to 19) and {@value #SOLID} (as {@code hpf create
 *     --solid}); what it leaves out is the archive's (as its writers store new entries; for a new
 *     archive zstd on HDFS and other remote file systems, lz4 on local disk, zstd if a level or
 *     solid packing is asked)
 * @param replace in an append, names the archive has are replaced instead of failing the write
 *     (option {@value #REPLACE})
 * @param archive the settings of the archive written into, or null for a new archive
 */
public record WriteOptions(PackingRequest packing, boolean replace, ArchiveSettings archive)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final String CODEC = EngineKeys.SPARK_CODEC;
  public static final String LEVEL = EngineKeys.SPARK_LEVEL;
  public static final String SOLID = EngineKeys.SPARK_SOLID;
  public static final String REPLACE = EngineKeys.SPARK_REPLACE;

  /** The options of a write; a level or solid packing without zstd fails the write now. */
  public static WriteOptions of(Map<String, String> options) {
    PackingRequest asked =
        PackingRequest.parse(
            options.get(CODEC), options.get(LEVEL), options.get(SOLID), LEVEL, SOLID);
    return new WriteOptions(asked, trueOrFalse(options, REPLACE), null);
  }

  private static boolean trueOrFalse(Map<String, String> options, String key) {
    String value = options.getOrDefault(key, "false");
    if (!value.equals("true") && !value.equals("false")) {
      throw new IllegalArgumentException(key + " must be true or false, not '" + value + "'");
    }
    return value.equals("true");
  }

  /** These options with the settings of the archive written into (null: a new archive). */
  WriteOptions withArchive(ArchiveSettings settings) {
    return new WriteOptions(packing, replace, settings);
  }

  /**
   * The options of the archive's writer at commit: a codec, level or solid packing the write asks
   * for becomes the archive's (recorded in the manifest, as {@code hpf add --codec} does).
   */
  WriterOptions commitOptions() {
    return packing.applyTo(WriterOptions.builder().replace(replace)).build();
  }

  /** The options of a task's own archive ({@link StagedImport#taskOptions}). */
  WriterOptions taskOptions() {
    return StagedImport.taskOptions(packing, archive);
  }
}
