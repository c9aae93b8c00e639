package io.hpf.hadoop;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Counts what a directory tree of a Hadoop file system costs the NameNode (papers 001/002), how
 * much of that is small files, and what packing the small files into one archive would leave.
 *
 * @param sizeHistogram files by size class: up to 4 KiB, 64 KiB, 1 MiB, 16 MiB, 128 MiB, larger
 */
public record DirectoryAnalysis(
    Path root,
    NameNodeCost current,
    long bytes,
    long smallFiles,
    long smallBytes,
    NameNodeCost smallFilesCost,
    NameNodeCost archiveCost,
    long smallThresholdBytes,
    long[] sizeHistogram) {

  public static final long[] SIZE_CLASSES = {4L << 10, 64L << 10, 1L << 20, 16L << 20, 128L << 20};

  /** Parts of the archive that would hold the small files: hpf's default part size. */
  static final long PART_BYTES = 1L << 30;

  /** Records per index bucket file: hpf's default. */
  static final long BUCKET_RECORDS = 65_536;

  /**
   * Walks {@code root} (one listing per directory). A file is small if it is under {@code
   * smallThresholdBytes}.
   */
  public static DirectoryAnalysis of(FileSystem fs, Path root, long smallThresholdBytes)
      throws IOException {
    Path qualified = fs.makeQualified(root);
    long defaultBlockSize = fs.getDefaultBlockSize(qualified);
    FileStatus rootStatus = fs.getFileStatus(qualified);
    if (!rootStatus.isDirectory()) {
      throw new IOException(qualified + ": not a directory");
    }
    // On local disk Hadoop's listing follows symbolic links; hpf create skips them, and what it
    // would pack is what is counted.
    boolean local = "file".equals(qualified.toUri().getScheme());
    Tally tally = new Tally(smallThresholdBytes);
    Deque<Path> pending = new ArrayDeque<>();
    pending.push(qualified);
    while (!pending.isEmpty()) {
      Path dir = pending.pop();
      tally.directories++;
      for (FileStatus status : fs.listStatus(dir)) {
        if (local
            && java.nio.file.Files.isSymbolicLink(
                java.nio.file.Path.of(status.getPath().toUri()))) {
          continue;
        }
        if (status.isDirectory()) {
          pending.push(status.getPath());
          continue;
        }
        long blockSize = status.getBlockSize() > 0 ? status.getBlockSize() : defaultBlockSize;
        tally.addFile(status.getLen(), NameNodeCost.blocksOf(status.getLen(), blockSize));
      }
    }
    return new DirectoryAnalysis(
        qualified,
        new NameNodeCost(tally.files, tally.directories, tally.blocks),
        tally.bytes,
        tally.smallFiles,
        tally.smallBytes,
        new NameNodeCost(tally.smallFiles, 0, tally.smallBlocks),
        archiveOf(tally.smallFiles, tally.smallBytes, defaultBlockSize),
        smallThresholdBytes,
        tally.histogram);
  }

  /** What the walk has counted so far. */
  private static final class Tally {
    final long smallThresholdBytes;
    final long[] histogram = new long[SIZE_CLASSES.length + 1];
    long files;
    long directories;
    long blocks;
    long bytes;
    long smallFiles;
    long smallBytes;
    long smallBlocks;

    Tally(long smallThresholdBytes) {
      this.smallThresholdBytes = smallThresholdBytes;
    }

    void addFile(long length, long fileBlocks) {
      files++;
      bytes += length;
      blocks += fileBlocks;
      int sizeClass = 0;
      while (sizeClass < SIZE_CLASSES.length && length > SIZE_CLASSES[sizeClass]) {
        sizeClass++;
      }
      histogram[sizeClass]++;
      if (length < smallThresholdBytes) {
        smallFiles++;
        smallBytes += length;
        smallBlocks += fileBlocks;
      }
    }
  }

  /**
   * An archive of {@code entries} entries and {@code bytes} content (stored uncompressed, the worst
   * case): part files of 1 GiB, one bucket file per 65,536 entries, a catalog, a manifest, a
   * dictionary, and its directory.
   */
  static NameNodeCost archiveOf(long entries, long bytes, long blockSize) {
    if (entries == 0) {
      return NameNodeCost.NONE;
    }
    long parts = Math.max(1, (bytes + PART_BYTES - 1) / PART_BYTES);
    long buckets = Math.max(1, (entries + BUCKET_RECORDS - 1) / BUCKET_RECORDS);
    long indexFiles = buckets + 3;
    long partBlocks = NameNodeCost.blocksOf(bytes, blockSize) + parts; // each part ends a block
    return new NameNodeCost(parts + indexFiles, 1, partBlocks + indexFiles);
  }

  /** The cost once the small files are packed: the rest, plus the archive. */
  public NameNodeCost afterPacking() {
    return new NameNodeCost(
            current.files() - smallFilesCost.files(),
            current.directories(),
            current.blocks() - smallFilesCost.blocks())
        .plus(archiveCost);
  }
}
