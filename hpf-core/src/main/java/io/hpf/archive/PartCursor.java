package io.hpf.archive;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.EntryGroup;
import io.hpf.internal.format.EntryReader;
import io.hpf.internal.format.PartEntry;
import io.hpf.store.ReadableFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * A pass over chosen entries of one part, in offset order: what a MapReduce or Spark task does with
 * its split. The part is read through an 8 MiB read-ahead window, or, when the pass's places are
 * given, a run of neighbouring places at a time (one read per window or run, not per entry: on HDFS
 * a read is a DataNode round trip), and each entry's header is checked where it lies. Not
 * thread-safe; one per task.
 */
public final class PartCursor implements Closeable {
  private final int partId;
  private final ReadableFile file;
  private final EntryReader entries;
  private PartEntry current;

  PartCursor(int partId, ReadableFile file, EntryReader entries) {
    this.partId = partId;
    this.file = file;
    this.entries = entries;
  }

  /**
   * Moves to the entry of a catalog row and returns its metadata: the entry that starts at {@code
   * offset}, or member {@code member} of the group that starts there (the last groups read are
   * kept, so the members of a group cost one read and one decompression). The caller checks the
   * name against the row's.
   *
   * @throws CorruptArchiveException if no intact entry starts there, or the group there has no such
   *     member
   */
  public EntryInfo entryAt(long offset, int member) throws IOException {
    PartEntry entry = entries.readAt(offset);
    if (entry.header().group()) {
      EntryGroup group = entries.members(entry);
      if (member < 0 || member >= group.size()) {
        throw new CorruptArchiveException(
            entries.path(),
            offset,
            "the group here has " + group.size() + " entries, the catalog names entry " + member);
      }
      entry = group.member(member);
    }
    current = entry;
    return current.info(partId);
  }

  /** The current entry's checked content, whole (up to 64 MiB; stream larger ones). */
  public byte[] content() throws IOException {
    return entries.content(current());
  }

  /** The current entry's content as a stream in bounded memory, checked at its end. */
  public InputStream openContent() throws IOException {
    return entries.openContent(current());
  }

  private PartEntry current() {
    if (current == null) {
      throw new IllegalStateException("no entry yet: call entryAt first");
    }
    return current;
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
