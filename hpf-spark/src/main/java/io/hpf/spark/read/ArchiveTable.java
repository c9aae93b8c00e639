package io.hpf.spark.read;

import io.hpf.spark.EntrySchema;
import io.hpf.spark.HadoopConf;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * One or more archives as a table of entries ({@link EntrySchema}), for batch reads. Writes go
 * through {@link io.hpf.spark.HpfDataSource}'s save path (see there why).
 */
public final class ArchiveTable implements SupportsRead {
  private final Map<String, String> properties;

  public ArchiveTable(Map<String, String> properties) {
    this.properties = Map.copyOf(properties);
  }

  @Override
  public String name() {
    return "hpf " + properties.getOrDefault("path", properties.getOrDefault("paths", ""));
  }

  @Override
  @SuppressWarnings("deprecation") // schema() is what Spark 4.2 still calls for V2 tables
  public StructType schema() {
    return EntrySchema.SCHEMA;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ);
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    CaseInsensitiveStringMap all = merged(options);
    return new EntryScanBuilder(
        HadoopConf.forSession(all), ReadOptions.of(all), EntrySchema.SCHEMA);
  }

  private CaseInsensitiveStringMap merged(CaseInsensitiveStringMap options) {
    java.util.HashMap<String, String> all = new java.util.HashMap<>(properties);
    all.putAll(options.asCaseSensitiveMap());
    return new CaseInsensitiveStringMap(all);
  }
}
