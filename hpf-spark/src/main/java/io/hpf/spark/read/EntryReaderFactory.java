package io.hpf.spark.read;

import io.hpf.spark.HadoopConf;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructType;

/** Makes each task's {@link EntryPartitionReader}; sent to executors with the scan's settings. */
final class EntryReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final HadoopConf conf;
  private final StructType required;
  private final long maxEntryBytes;

  EntryReaderFactory(HadoopConf conf, StructType required, long maxEntryBytes) {
    this.conf = conf;
    this.required = required;
    this.maxEntryBytes = maxEntryBytes;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    return new EntryPartitionReader(
        (EntryPartition) partition, required, maxEntryBytes, conf.get());
  }
}
