package io.hpf.hadoop;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

/** The NameNode cost of an archive, and of its entries were they plain files. */
public final class ArchiveCosts {
  private ArchiveCosts() {}

  /**
   * The archive's own cost: its directory, its files and their blocks. On HDFS the blocks are the
   * real ones (a joined part file keeps the blocks of the parts joined, the last of each partial);
   * elsewhere they are what the files would take with {@code blockSize}.
   */
  public static NameNodeCost ofArchive(Storage storage, long blockSize) throws IOException {
    long files = 0;
    long blocks = 0;
    if (storage instanceof HadoopStorage hadoop) {
      RemoteIterator<LocatedFileStatus> it =
          hadoop.fileSystem().listLocatedStatus(hadoop.directory());
      while (it.hasNext()) {
        LocatedFileStatus status = it.next();
        if (status.isFile()) {
          files++;
          blocks += status.getBlockLocations().length;
        }
      }
    } else {
      for (StoredFile file : storage.list()) {
        files++;
        blocks += NameNodeCost.blocksOf(file.lengthBytes(), blockSize);
      }
    }
    return new NameNodeCost(files, 1, blocks);
  }

  /**
   * What the NameNode holds for a subtree, as it answers: files and directories (its content
   * summary) and the blocks of every file.
   */
  public static NameNodeCost counted(FileSystem fs, org.apache.hadoop.fs.Path dir)
      throws IOException {
    ContentSummary summary = fs.getContentSummary(dir);
    long blocks = 0;
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      blocks += files.next().getBlockLocations().length;
    }
    return new NameNodeCost(summary.getFileCount(), summary.getDirectoryCount(), blocks);
  }

  /**
   * What the live entries would cost as plain files under one directory: a file each, a block per
   * {@code blockSize} of content, and a directory for every distinct parent path.
   */
  public static NameNodeCost ofEntriesAsFiles(ArchiveReader reader, long blockSize)
      throws IOException {
    AsFiles asFiles = new AsFiles(blockSize);
    for (Iterator<EntryInfo> it = reader.list(""); it.hasNext(); ) {
      asFiles.accept(it.next());
    }
    return asFiles.cost();
  }

  /** {@link #ofEntriesAsFiles}, counted an entry at a time (as another pass visits them). */
  public static final class AsFiles implements Consumer<EntryInfo> {
    private final long blockSize;
    private final Set<String> directories = new HashSet<>(List.of(""));
    private long files;
    private long blocks;

    public AsFiles(long blockSize) {
      this.blockSize = blockSize;
    }

    @Override
    public void accept(EntryInfo entry) {
      files++;
      blocks += NameNodeCost.blocksOf(entry.rawLength(), blockSize);
      String name = entry.name();
      for (int slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
        if (!directories.add(name.substring(0, slash))) {
          break; // its ancestors are in already
        }
      }
    }

    public NameNodeCost cost() {
      return new NameNodeCost(files, directories.size(), blocks);
    }
  }
}
