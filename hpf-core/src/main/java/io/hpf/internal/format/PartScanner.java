package io.hpf.internal.format;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.internal.io.ReadAheadFile;
import io.hpf.store.ReadableFile;
import java.io.IOException;

/**
 * Walks the entries of a byte range of a part file in order, through a read-ahead window (one read
 * per 8 MiB, not per entry: on HDFS a read is a DataNode round trip). Engines read a split with it;
 * verify and recovery walk whole parts. A group is decompressed and checked when the walk reaches
 * it, and its members are returned one by one, at the group's offset. The content of each entry is
 * read through {@link #reader()}, which shares the window. Not thread-safe.
 */
public final class PartScanner {
  private final EntryReader reader;
  private final long to;
  private long position;
  private EntryGroup group;
  private int nextMember;

  /**
   * Scans the entries that start in {@code [from, to)}; an entry may end past {@code to}, never
   * past {@code limit} (the part's committed length, or its file length when recovering). REQUIRES:
   * {@code from} is where an entry or padding starts.
   */
  public PartScanner(
      ReadableFile part, String path, long from, long to, long limit, DictionarySource dictionaries)
      throws IOException {
    this.reader = new EntryReader(new ReadAheadFile(part), path, limit, dictionaries);
    this.position = from;
    this.to = Math.min(to, limit);
  }

  /**
   * The next entry, its header checked, or null at the end of the range. A member of a group comes
   * with its group's content checked.
   *
   * @throws CorruptArchiveException if no intact entry starts where one must
   */
  public PartEntry next() throws IOException {
    if (group != null) {
      PartEntry member = group.member(nextMember++);
      if (nextMember == group.size()) {
        group = null;
      }
      return member;
    }
    long at = reader.skipPadding(position);
    if (at >= to) {
      position = Math.max(position, Math.min(at, to));
      return null;
    }
    PartEntry entry = reader.readAt(at);
    position = entry.end();
    if (!entry.header().group()) {
      return entry;
    }
    group = reader.members(entry);
    nextMember = 0;
    return next();
  }

  /** Continues the walk at {@code offset} (after damage, at the next entry known to start). */
  public void seek(long offset) {
    position = offset;
    group = null;
  }

  /** Reads the content of the entries this scanner returns. */
  public EntryReader reader() {
    return reader;
  }
}
