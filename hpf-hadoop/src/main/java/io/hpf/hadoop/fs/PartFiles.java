package io.hpf.hadoop.fs;

import io.hpf.format.FileNames;
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
 * are asked once (one NameNode call per part, not per entry); block locations each time, since a
 * part may still grow.
 */
final class PartFiles {
  /** Owner, group, replication and block size of a file. */
  record Facts(String owner, String group, short replication, long blockSize) {}

  private final Storage storage;
  private final long localBlockSize;
  private final ConcurrentHashMap<String, Facts> facts = new ConcurrentHashMap<>();

  PartFiles(Storage storage, long localBlockSize) {
    this.storage = storage;
    this.localBlockSize = localBlockSize;
  }

  Facts part(int partId) throws IOException {
    return of(FileNames.partFileName(partId));
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
    return HadoopArchives.partBlocks(storage, partId, offset, length);
  }

  private static Path path(HadoopStorage storage, String name) {
    return name.isEmpty() ? storage.directory() : new Path(storage.directory(), name);
  }
}
