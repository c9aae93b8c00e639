package io.hpf.hadoop.fs;

import io.hpf.archive.ArchiveFormat;
import io.hpf.hadoop.HadoopArchives;
import io.hpf.hadoop.HadoopStorage;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * What the file system says of an archive's part files and directory: owner, group, replication and
 * block size (an entry's status shows its part's), and where a part's blocks are. A part's facts
 * and its block locations are asked once (one NameNode call per part, not per entry), the blocks
 * again only when an entry lies past those known (a part may grow).
 */
final class PartFiles {
  /** Owner, group, replication and block size of a file. */
  record Facts(String owner, String group, short replication, long blockSize) {}

  private final Storage storage;
  private final long localBlockSize;
  private final ConcurrentHashMap<String, Facts> facts = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, BlockLocation[]> blocks = new ConcurrentHashMap<>();

  PartFiles(Storage storage, long localBlockSize) {
    this.storage = storage;
    this.localBlockSize = localBlockSize;
  }

  Facts part(int partId) throws IOException {
    return of(ArchiveFormat.partFileName(partId));
  }

  /** The archive directory's own facts ("" names it). */
  Facts directory() throws IOException {
    return of("");
  }

  private Facts of(String name) throws IOException {
    Facts f = facts.get(name);
    if (f == null) {
      f = read(name);
      facts.putIfAbsent(name, f);
    }
    return f;
  }

  private Facts read(String name) throws IOException {
    if (storage instanceof HadoopStorage hadoop) {
      FileStatus s = hadoop.fileSystem().getFileStatus(path(hadoop, name));
      return new Facts(s.getOwner(), s.getGroup(), s.getReplication(), s.getBlockSize());
    }
    java.nio.file.Path local = ((LocalStorage) storage).directory();
    if (!name.isEmpty()) {
      local = local.resolve(name);
    }
    PosixFileAttributeView view =
        Files.getFileAttributeView(local, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
    if (view == null) {
      return new Facts("", "", (short) 1, localBlockSize);
    }
    PosixFileAttributes a = view.readAttributes();
    return new Facts(a.owner().getName(), a.group().getName(), (short) 1, localBlockSize);
  }

  /**
   * The locations of the blocks holding bytes {@code [offset, offset + length)} of a part, with
   * offsets as the file system gives them (in the part). Local disk is one block on this host.
   */
  BlockLocation[] locations(int partId, long offset, long length) throws IOException {
    long end = offset + length;
    BlockLocation[] all = blocks.get(partId);
    if (all == null || coveredEnd(all) < end) {
      // The whole part at once: a recursive listing asks for every entry's blocks, and one
      // NameNode call per part serves them all (a committed part only grows at its end).
      all = HadoopArchives.partBlocks(storage, partId, 0, Math.max(end, 1));
      blocks.put(partId, all);
    }
    java.util.List<BlockLocation> out = new java.util.ArrayList<>();
    for (BlockLocation b : all) {
      if (b.getOffset() < end && b.getOffset() + b.getLength() > offset
          || length == 0 && b.getOffset() <= offset && offset <= b.getOffset() + b.getLength()) {
        out.add(b);
      }
    }
    return out.toArray(new BlockLocation[0]);
  }

  private static long coveredEnd(BlockLocation[] blocks) {
    return blocks.length == 0
        ? 0
        : blocks[blocks.length - 1].getOffset() + blocks[blocks.length - 1].getLength();
  }

  private static Path path(HadoopStorage storage, String name) {
    return name.isEmpty() ? storage.directory() : new Path(storage.directory(), name);
  }
}
