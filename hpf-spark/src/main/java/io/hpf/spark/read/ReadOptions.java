package io.hpf.spark.read;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpf.hadoop.EngineKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The options of a read, parsed once and checked. Immutable.
 *
 * @param paths archives, globs of archives, or {@code hpf://} paths inside an archive
 * @param maxPartitionBytes most stored bytes of a partition (option {@value #MAX_PARTITION_BYTES},
 *     default {@code spark.sql.files.maxPartitionBytes})
 * @param maxEntryBytes the largest entry a {@code content} value may hold (option {@value
 *     #MAX_ENTRY_BYTES}; a binary value is at most {@value #MAX_BINARY_BYTES} bytes)
 * @param driverLookupBytes most content bytes a lookup by name ({@code name =}/{@code IN}) reads on
 *     the driver instead of in tasks (option {@value #DRIVER_LOOKUP_BYTES}, default {@value
 *     #DEFAULT_DRIVER_LOOKUP_BYTES}; 0: always tasks)
 * @param select a {@code --select} expression evaluated on metadata (docs/MAPREDUCE.md "Selecting
 *     entries"), "" for all; it is how attribute conditions reach the archive (Spark cannot push a
 *     map lookup)
 */
public record ReadOptions(
    List<String> paths,
    long maxPartitionBytes,
    long maxEntryBytes,
    long driverLookupBytes,
    String select) {
  public static final String MAX_PARTITION_BYTES = EngineKeys.SPARK_MAX_PARTITION_BYTES;
  public static final String MAX_ENTRY_BYTES = EngineKeys.SPARK_MAX_ENTRY_BYTES;
  public static final String DRIVER_LOOKUP_BYTES = EngineKeys.SPARK_DRIVER_LOOKUP_BYTES;
  public static final String SELECT = EngineKeys.SPARK_SELECT;
  public static final long DEFAULT_DRIVER_LOOKUP_BYTES = 64 << 20;

  /** The largest Java array, so the largest binary value. */
  public static final long MAX_BINARY_BYTES = Integer.MAX_VALUE - 8;

  public ReadOptions {
    paths = List.copyOf(paths);
    if (paths.isEmpty()) {
      throw new IllegalArgumentException(
          "no archive given: spark.read.format(\"hpf\").load(\"<archive>\")");
    }
    if (maxPartitionBytes <= 0) {
      throw new IllegalArgumentException(MAX_PARTITION_BYTES + " must be positive");
    }
    if (driverLookupBytes < 0) {
      throw new IllegalArgumentException(DRIVER_LOOKUP_BYTES + " must not be negative");
    }
    if (maxEntryBytes < 0 || maxEntryBytes > MAX_BINARY_BYTES) {
      throw new IllegalArgumentException(
          MAX_ENTRY_BYTES + " must be between 0 and " + MAX_BINARY_BYTES + " (Spark's binary)");
    }
  }

  public static ReadOptions of(CaseInsensitiveStringMap options) {
    return new ReadOptions(
        paths(options),
        options.getLong(MAX_PARTITION_BYTES, SQLConf.get().filesMaxPartitionBytes()),
        options.getLong(MAX_ENTRY_BYTES, MAX_BINARY_BYTES),
        options.getLong(DRIVER_LOOKUP_BYTES, DEFAULT_DRIVER_LOOKUP_BYTES),
        options.getOrDefault(SELECT, ""));
  }

  /** {@code load(path)} sets "path"; {@code load(p1, p2, ...)} sets "paths", a JSON array. */
  private static List<String> paths(CaseInsensitiveStringMap options) {
    List<String> paths = new ArrayList<>();
    if (options.containsKey("path")) {
      paths.add(options.get("path"));
    }
    if (options.containsKey("paths")) {
      try {
        for (String p : new ObjectMapper().readValue(options.get("paths"), String[].class)) {
          paths.add(p);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("the option 'paths' is not a JSON array of strings", e);
      }
    }
    return paths;
  }
}
