package io.hpf.cli;

import io.hpf.hadoop.HadoopStorageOptions;
import picocli.CommandLine.Option;

/**
 * The HDFS options of the HPF paper for commands that write files (a picocli mixin). Each is
 * optional; on local disk they are ignored.
 */
final class HdfsWriteFlags {
  @Option(
      names = "--replication",
      paramLabel = "N",
      description = "HDFS replicas of the files written (default: the file system's).")
  short replication;

  @Option(
      names = "--block-size",
      paramLabel = "MiB",
      description =
          "HDFS block size of part files (default: the file system's). Entries smaller than a"
              + " block never straddle a block boundary.")
  long partBlockSizeMiB;

  @Option(
      names = "--index-block-size",
      paramLabel = "MiB",
      description =
          "HDFS block size of index, catalog and manifest files (default: the file system's).")
  long indexBlockSizeMiB;

  @Option(
      names = "--lazy-persist",
      description =
          "Write with the LAZY_PERSIST storage policy (first replica in DataNode memory, saved to"
              + " disk lazily): set on the archive directory while writing, its old policy back"
              + " after. Files written meanwhile keep LAZY_PERSIST (HDFS does not let it change).")
  boolean lazyPersist;

  HadoopStorageOptions options() {
    return new HadoopStorageOptions(
        replication, partBlockSizeMiB << 20, indexBlockSizeMiB << 20, lazyPersist);
  }
}
