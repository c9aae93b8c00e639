package io.hpf.hadoop;

/**
 * How {@link HadoopStorage} creates files: the HDFS options of the HPF paper, each optional. Zero
 * means "the file system's default".
 *
 * @param replication replicas of every file the archive writes; 0 for the file system default
 * @param partBlockSize block size of part files (the entries); 0 for the default
 * @param indexBlockSize block size of index, catalog, dictionary and manifest files; 0 for the
 *     default. These files are read in small pieces, so a large block buys nothing.
 * @param lazyPersist create files with the LAZY_PERSIST storage policy (first replica in DataNode
 *     memory, written to disk lazily): set on the archive directory when the first file is created
 *     and given back by {@link HadoopStorage#resetLazyPersist()}; the files written meanwhile keep
 *     it (HDFS 3 refuses to change LAZY_PERSIST on a file, and hpf never appends to a closed file)
 */
public record HadoopStorageOptions(
    short replication, long partBlockSize, long indexBlockSize, boolean lazyPersist) {

  public static final HadoopStorageOptions DEFAULTS =
      new HadoopStorageOptions((short) 0, 0, 0, false);

  public HadoopStorageOptions {
    if (replication < 0) {
      throw new IllegalArgumentException("replication must be at least 1, got " + replication);
    }
    if (partBlockSize < 0 || indexBlockSize < 0) {
      throw new IllegalArgumentException("a block size must be positive");
    }
    checkBlockSize(partBlockSize);
    checkBlockSize(indexBlockSize);
  }

  private static void checkBlockSize(long size) {
    // HDFS needs a multiple of its checksum chunk (512 bytes).
    if (size != 0 && size % 512 != 0) {
      throw new IllegalArgumentException("a block size must be a multiple of 512, got " + size);
    }
  }

  public HadoopStorageOptions withReplication(short value) {
    return new HadoopStorageOptions(value, partBlockSize, indexBlockSize, lazyPersist);
  }

  public HadoopStorageOptions withPartBlockSize(long value) {
    return new HadoopStorageOptions(replication, value, indexBlockSize, lazyPersist);
  }

  public HadoopStorageOptions withIndexBlockSize(long value) {
    return new HadoopStorageOptions(replication, partBlockSize, value, lazyPersist);
  }

  public HadoopStorageOptions withLazyPersist(boolean value) {
    return new HadoopStorageOptions(replication, partBlockSize, indexBlockSize, value);
  }
}
