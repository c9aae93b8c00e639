package io.hpf.spark.read;

import io.hpf.archive.model.EntryInfo;
import io.hpf.hadoop.plan.EntryRun;
import io.hpf.hadoop.plan.PartRuns;
import io.hpf.spark.EntrySchema;
import io.hpf.spark.HadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * A planned read of archives by tasks. Planning, on the driver, reads manifests and catalogs only
 * (for {@code name =}/{@code IN}, the index and the named entries' headers instead), asks each part
 * file's block locations once, and cuts the selected entries into partitions of whole entries of
 * one part up to {@code maxPartitionBytes} (the MapReduce splits' rules): no NameNode call per
 * entry.
 */
final class EntryScan implements Scan, Batch {
  private final HadoopConf conf;
  private final ReadOptions options;
  private final List<Filter> filters;
  private final StructType required;

  EntryScan(HadoopConf conf, ReadOptions options, List<Filter> filters, StructType required) {
    this.conf = conf;
    this.options = options;
    this.filters = List.copyOf(filters);
    this.required = required;
  }

  @Override
  public StructType readSchema() {
    return required;
  }

  @Override
  public String description() {
    return "hpf " + options.paths() + " filters " + filters + " select '" + options.select() + "'";
  }

  @Override
  public Batch toBatch() {
    return this;
  }

  @Override
  public InputPartition[] planInputPartitions() {
    boolean withAttributes = Arrays.asList(required.fieldNames()).contains(EntrySchema.ATTRIBUTES);
    List<InputPartition> partitions = new ArrayList<>();
    try {
      ScannedArchives.forEach(
          conf,
          options,
          filters,
          (storage, reader, rows) -> {
            List<EntryInfo> selected = new ArrayList<>();
            rows.forEach(reader, selected::add);
            for (EntryRun run :
                PartRuns.plan(reader, storage, selected, options.maxPartitionBytes())) {
              partitions.add(new EntryPartition(rows.archive(), run, withAttributes));
            }
            return true;
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e.getMessage(), e);
    }
    return partitions.toArray(new InputPartition[0]);
  }

  @Override
  public PartitionReaderFactory createReaderFactory() {
    return new EntryReaderFactory(conf, required, options.maxEntryBytes());
  }
}
