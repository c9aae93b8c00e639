package io.hpf.spark.write;

import io.hpf.archive.WriterOptions;
import io.hpf.format.Codec;
import java.io.Serializable;
import java.util.Map;

/**
 * The options of a write, parsed once and checked. Immutable.
 *
 * @param codec how entries are stored (option {@value #CODEC}: zstd, lz4 or none; default zstd)
 * @param replace in an append, names the archive has are replaced instead of failing the write
 *     (option {@value #REPLACE})
 */
public record WriteOptions(Codec codec, boolean replace) implements Serializable {
  public static final String CODEC = "codec";
  public static final String REPLACE = "replace";

  public static WriteOptions of(Map<String, String> options) {
    Codec codec = Codec.parse(options.getOrDefault(CODEC, "zstd"));
    String replace = options.getOrDefault(REPLACE, "false");
    if (!replace.equals("true") && !replace.equals("false")) {
      throw new IllegalArgumentException(REPLACE + " must be true or false, not '" + replace + "'");
    }
    return new WriteOptions(codec, Boolean.parseBoolean(replace));
  }

  /** The options of the archive's writer at commit. */
  WriterOptions commitOptions() {
    return WriterOptions.builder().replace(replace).build();
  }

  /**
   * The options of a task's own archive: no dictionary (its parts move into an archive with its own
   * dictionaries) and no grace period (nobody reads it while it is written).
   */
  WriterOptions taskOptions() {
    return WriterOptions.builder().codec(codec).gracePeriodMillis(0).build();
  }
}
