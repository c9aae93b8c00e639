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
  private final ReadAheadFile file;
  private final String path;
  private final long limit;
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
    this.file = new ReadAheadFile(part);
    this.path = path;
    this.limit = limit;
    this.reader = new EntryReader(file, path, limit, dictionaries);
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
    long at = skipPadding(position);
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

  /**
   * Where the next entry starts at or after {@code at}, skipping padding (zero bytes written so
   * that an entry does not straddle a block boundary) and the file headers of joined part files
   * (FORMAT.md "Part file"). An entry starts with its magic, whose first byte is neither zero nor a
   * file header's. Returns the limit if only padding is left.
   */
  private long skipPadding(long at) throws IOException {
    int step = 8; // usually there is no padding: the first byte is an entry's
    while (at < limit) {
      int n = (int) Math.min(limit - at, step);
      byte[] bytes = file.readFully(at, n);
      int i = 0;
      while (i < n && bytes[i] == 0) {
        i++;
      }
      if (i < n) {
        at += i;
        if ((bytes[i] & 0xFF) != JOINED_HEADER_FIRST_BYTE) {
          return at;
        }
        skipJoinedHeader(at);
        at += FormatConstants.FILE_HEADER_BYTES;
        step = 8;
        continue;
      }
      at += n;
      step = 64 * 1024;
    }
    return limit;
  }

  /** The first byte of a file header's magic ({@code 0x89}), never an entry's or padding's. */
  private static final int JOINED_HEADER_FIRST_BYTE = FormatConstants.FILE_MAGIC & 0xFF;

  /** Checks the part file header at {@code at} that a join left inside the part. */
  private void skipJoinedHeader(long at) throws IOException {
    if (limit - at < FormatConstants.FILE_HEADER_BYTES) {
      throw new CorruptArchiveException(path, at, "a partial file header inside the part");
    }
    byte[] header = file.readFully(at, FormatConstants.FILE_HEADER_BYTES);
    try {
      FileFraming.checkHeader(path, header, 0, header.length, FormatConstants.KIND_PART);
    } catch (CorruptArchiveException e) {
      throw new CorruptArchiveException(
          path, at, "no entry here, nor the file header of a joined part: " + e.problem(), e);
    }
  }

  /** Reads the content of the entries this scanner returns. */
  public EntryReader reader() {
    return reader;
  }
}
