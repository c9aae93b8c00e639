package io.hpf.cli;

import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.hadoop.StorageLocator;
import io.hpf.pack.SourceTree;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Where archives and sources live (a picocli mixin on every command): local paths, file: URIs or
 * any Hadoop file system URI. Hadoop settings come from $HADOOP_CONF_DIR and -D key=value.
 */
final class StorageFlags {
  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description =
          "A Hadoop setting (repeatable), over $HADOOP_CONF_DIR: -D dfs.replication=2, -D"
              + " fs.defaultFS=hdfs://127.0.0.1:9000.")
  Map<String, String> properties = new LinkedHashMap<>();

  StorageLocator locator(HadoopStorageOptions options) {
    return new StorageLocator(properties, options);
  }

  StorageLocator locator() {
    return locator(HadoopStorageOptions.DEFAULTS);
  }

  /**
   * An archive to change, with the HDFS write options. The caller closes it: with --lazy-persist
   * that gives the archive directory its old storage policy back.
   */
  Storage openForWriting(String archive, HdfsWriteFlags hdfs) throws IOException {
    return locator(hdfs.options()).openArchive(archive);
  }

  Storage open(String archive) throws IOException {
    // Local disk without a StorageLocator: a local command loads no Hadoop class.
    return LocalStorage.isLocal(archive)
        ? LocalStorage.open(LocalStorage.localPath(archive))
        : locator().openArchiveToRead(archive);
  }

  /** A directory to pack into {@code archive}, which it leaves out should it lie inside. */
  SourceTree sourceTree(String location, String archive) throws IOException {
    return locator().sourceTree(location, archive);
  }
}
