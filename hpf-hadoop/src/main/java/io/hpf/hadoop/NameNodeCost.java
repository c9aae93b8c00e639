package io.hpf.hadoop;

/**
 * What a set of files costs the NameNode: every file, directory and block is an object in its heap.
 * The heap estimate uses the rule of thumb of paper 002 (about 150 bytes per object); the HPF
 * paper's finer figures (about 250 bytes per file and 368 per block of three replicas) give {@link
 * #heapBytesHpfModel()}.
 */
public record NameNodeCost(long files, long directories, long blocks) {
  public static final long BYTES_PER_OBJECT = 150;
  public static final long HPF_BYTES_PER_INODE = 250;
  public static final long HPF_BYTES_PER_BLOCK = 368;

  /** The default HDFS block size, used where a file system does not say (local disk). */
  public static final long DEFAULT_BLOCK_SIZE = 128L << 20;

  public static final NameNodeCost NONE = new NameNodeCost(0, 0, 0);

  public long objects() {
    return files + directories + blocks;
  }

  public long heapBytes() {
    return objects() * BYTES_PER_OBJECT;
  }

  public long heapBytesHpfModel() {
    return (files + directories) * HPF_BYTES_PER_INODE + blocks * HPF_BYTES_PER_BLOCK;
  }

  public NameNodeCost plus(NameNodeCost other) {
    return new NameNodeCost(
        files + other.files, directories + other.directories, blocks + other.blocks);
  }

  /** Blocks of a file of {@code length} bytes: an empty file has none. */
  public static long blocksOf(long length, long blockSize) {
    return length == 0 ? 0 : (length + blockSize - 1) / blockSize;
  }
}
