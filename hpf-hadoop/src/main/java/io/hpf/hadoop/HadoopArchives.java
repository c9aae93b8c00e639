package io.hpf.hadoop;

import io.hpf.archive.ArchiveFormat;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Archives named by a Hadoop URI, for code that runs inside Hadoop (the {@code hpf://} file system,
 * input and output formats): the configuration is the caller's, and the file system is Hadoop's
 * shared instance for that URI (closed by Hadoop, not by the storage).
 */
public final class HadoopArchives {
  private HadoopArchives() {}

  /** The storage of an existing archive directory, to read ({@link HadoopStorage#openToRead}). */
  public static Storage open(URI archive, Configuration conf) throws IOException {
    if ("file".equals(archive.getScheme())) {
      // java.nio, not Hadoop's local file system, which starts a process per file without
      // libhadoop.
      return LocalStorage.open(Paths.get(archive.getPath()));
    }
    FileSystem fs = FileSystem.get(archive, conf);
    return HadoopStorage.openToRead(fs, new Path(archive), HadoopStorageOptions.DEFAULTS, false);
  }

  /** The storage of an archive directory to write, made (with its parents) if missing. */
  public static Storage create(URI archive, Configuration conf) throws IOException {
    if ("file".equals(archive.getScheme())) {
      return LocalStorage.createDirectories(Paths.get(archive.getPath()));
    }
    FileSystem fs = FileSystem.get(archive, conf);
    return HadoopStorage.createDirectories(
        fs, new Path(archive), HadoopStorageOptions.DEFAULTS, false);
  }

  /**
   * Where the blocks holding bytes {@code [offset, offset + length)} of a part file are, with
   * offsets in the part. Local disk is one block on this host.
   */
  public static BlockLocation[] partBlocks(Storage storage, int partId, long offset, long length)
      throws IOException {
    if (storage instanceof HadoopStorage hadoop) {
      Path part = new Path(hadoop.directory(), ArchiveFormat.partFileName(partId));
      return hadoop.fileSystem().getFileBlockLocations(part, offset, length);
    }
    return new BlockLocation[] {
      new BlockLocation(new String[] {"localhost:9866"}, new String[] {"localhost"}, offset, length)
    };
  }
}
