package io.hpf.hadoop;

/**
 * Every setting the engines take by name, in one place: Hadoop configuration keys (MapReduce jobs,
 * the {@code hpf://} file system; {@code -D key=value} or a site file) and the options of Spark's
 * {@code format("hpf")}. A setting has one name everywhere: packing is {@code codec}, {@code level}
 * and {@code solid} on the command line ({@code --codec}, {@code --level}, {@code --solid}), in
 * Spark options and in MapReduce keys ({@code hpf.output.codec}, ...).
 */
public final class EngineKeys {
  private EngineKeys() {}

  // The hpf:// file system.

  /** How often, in ms, an open archive may be looked at for a newer generation (default 1000). */
  public static final String REFRESH_INTERVAL_MS = "fs.hpf.refresh.interval.ms";

  // MapReduce input.

  /** Bytes of entries in one split (default: the part's block size, less for a small input). */
  public static final String SPLIT_SIZE = "hpf.split.size";

  /** A {@code --select} expression (docs/MAPREDUCE.md "Selecting entries"); default: all. */
  public static final String SELECT = "hpf.select";

  /** A class implementing {@code io.hpf.select.Selector}, instead of {@link #SELECT}. */
  public static final String SELECT_CLASS = "hpf.select.class";

  /** The largest entry a map task takes as one value, in bytes (default and most 2 GiB - 9). */
  public static final String MAX_VALUE_BYTES = "hpf.input.max.value.bytes";

  /** {@code hpf mapreduce grep}'s pattern, a Java regular expression. */
  public static final String GREP_PATTERN = "hpf.grep.pattern";

  // MapReduce output.

  /** The archive a job's output goes into. */
  public static final String OUTPUT_ARCHIVE = "hpf.output.archive";

  /** true: an output name the archive has replaces its entry; default false (the job fails). */
  public static final String OUTPUT_REPLACE = "hpf.output.replace";

  /** What {@code HpfTextOutputFormat} puts before each task's entry name ({@code part-m-...}). */
  public static final String OUTPUT_NAME_PREFIX = "hpf.output.name.prefix";

  /**
   * The codec of output entries: none, lz4 or zstd; default: the archive's (for a new one zstd on
   * HDFS and other remote file systems, lz4 on local disk; zstd if a level or solid is asked).
   */
  public static final String OUTPUT_CODEC = "hpf.output.codec";

  /** The zstd level of output entries, 1 to 19; default: the archive's (3 for a new one). */
  public static final String OUTPUT_LEVEL = "hpf.output.level";

  /** {@link #OUTPUT_LEVEL}'s name before it had the same name as everywhere else; still read. */
  public static final String OUTPUT_LEVEL_OLD_NAME = "hpf.output.zstd.level";

  /** true: pack for size, as {@code hpf create --solid}; default false. */
  public static final String OUTPUT_SOLID = "hpf.output.solid";

  // Spark's format("hpf"): read options.

  /** Most bytes of entries in one partition (default {@code spark.sql.files.maxPartitionBytes}). */
  public static final String SPARK_MAX_PARTITION_BYTES = "maxPartitionBytes";

  /** The largest entry a row carries, in bytes (default and most 2 GiB - 9). */
  public static final String SPARK_MAX_ENTRY_BYTES = "maxEntryBytes";

  /** Lookups returning at most this many bytes are answered on the driver (default 64 MiB). */
  public static final String SPARK_DRIVER_LOOKUP_BYTES = "driverLookupBytes";

  /** A {@code --select} expression evaluated on metadata before any content is read. */
  public static final String SPARK_SELECT = "select";

  // Spark's format("hpf"): write options (spark-pack's flags have the same names).

  /** As {@link #OUTPUT_CODEC}. */
  public static final String SPARK_CODEC = "codec";

  /** As {@link #OUTPUT_LEVEL}. */
  public static final String SPARK_LEVEL = "level";

  /** As {@link #OUTPUT_SOLID}. */
  public static final String SPARK_SOLID = "solid";

  /** As {@link #OUTPUT_REPLACE}, for mode append. */
  public static final String SPARK_REPLACE = "replace";
}
