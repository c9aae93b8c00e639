package io.hpf.spark.read;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.LocalScan;
import org.apache.spark.sql.types.StructType;

/**
 * A scan answered on the driver (Spark's {@link LocalScan}): its rows, made while planning, become
 * a local table, and no job reads the archive.
 */
abstract class DriverScan implements LocalScan {
  private final InternalRow[] rows;
  private final StructType schema;
  private final String description;

  DriverScan(InternalRow[] rows, StructType schema, String description) {
    this.rows = rows;
    this.schema = schema;
    this.description = description;
  }

  @Override
  public InternalRow[] rows() {
    return rows.clone();
  }

  @Override
  public StructType readSchema() {
    return schema;
  }

  @Override
  public String description() {
    return description;
  }
}
