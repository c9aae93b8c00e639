package io.hpf.bench.paper;

import io.hpf.hadoop.HadoopStorage;
import io.hpf.hadoop.HadoopStorageOptions;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a system stores a dataset: a path of a file system. Local disk is Hadoop's raw local file
 * system for the Hadoop formats (no .crc side files) and {@code java.nio} for hpf and plain files,
 * as each would be used on local disk.
 */
public record BenchTarget(FileSystem fs, Path path) {
  public boolean isLocal() {
    return fs.getUri().getScheme().equals("file");
  }

  /** The target as a local path. REQUIRES: {@link #isLocal()}. */
  public java.nio.file.Path localPath() {
    return java.nio.file.Path.of(path.toUri().getPath());
  }

  public BenchTarget child(String name) {
    return new BenchTarget(fs, new Path(path, name));
  }

  /** The target as hpf storage, created if {@code create}. */
  public Storage storage(boolean create) throws IOException {
    if (isLocal()) {
      return create ? LocalStorage.createDirectories(localPath()) : LocalStorage.open(localPath());
    }
    return create
        ? HadoopStorage.createDirectories(fs, path, HadoopStorageOptions.DEFAULTS, false)
        : HadoopStorage.openToRead(fs, path, HadoopStorageOptions.DEFAULTS, false);
  }
}
