package io.hpf.hadoop.fs;

import io.hpf.archive.model.EntryInfo;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The status of an entry, keeping the catalog row it was made from: block locations asked for with
 * it (as a recursive listing does for every file) need no second lookup of the name.
 */
final class EntryStatus extends FileStatus {
  private static final long serialVersionUID = 1L;

  private final transient EntryInfo entry;

  EntryStatus(EntryInfo entry, PartFiles.Facts part, Path path) {
    super(
        entry.rawLength(),
        false,
        part.replication(),
        part.blockSize(),
        entry.mtimeMillis(),
        entry.mtimeMillis(),
        new FsPermission((short) (entry.mode() & 07777)),
        part.owner(),
        part.group(),
        path);
    this.entry = entry;
  }

  /** The catalog row, or null once serialized and read back. */
  EntryInfo entry() {
    return entry;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o); // a status is its path, as FileStatus says
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }
}
