package io.hpf.internal.write;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.ChunkedEncoder;
import io.hpf.internal.format.ContentCompressor;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.AppendableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Appends entries to one part file (FORMAT.md "Part file"). Thread-safe, so that the writer threads
 * of a commit can share one part where files are costly ({@link PartPool}): each thread compresses
 * its entries (and the groups it fills) with a compressor no other thread is using ({@link
 * EntryPreparer}), and holds the part only to append the bytes; a streamed entry holds it while it
 * is copied. Keeps the rows of the entries it wrote.
 *
 * <p>Small entries wait in a group (FORMAT.md "Group") until it has about {@link
 * WriterOptions#groupBytes()} raw bytes, then go out compressed as one entry; {@link #finish()}
 * writes the last group. Their rows exist once their group is written.
 *
 * <p>Only complete entries count: {@link #committedLength()} is the end of the last entry written
 * whole. If a write fails midway the part is marked broken and gets no more entries; the bytes past
 * the committed length are an uncommitted tail that no reader looks at.
 */
public final class PartWriter {
  private final int partId;
  private final String fileName;
  private final AppendableFile file;
  private final EntryPreparer preparer;
  private RowSorter rows = new RowSorter(); // since the last checkpoint; guarded by this
  private final long blockSize;
  private final WriterOptions options;
  private GroupBuilder group = new GroupBuilder(); // guarded by this
  private long paddingBytes; // guarded by this
  private long committedLength; // guarded by this
  private volatile boolean broken;
  private boolean finished; // guarded by this
  private boolean committed; // a committed manifest names this part; guarded by this
  private long fileLength = -1; // guarded by this

  /**
   * @param options the block alignment and group sizes
   */
  public PartWriter(
      Storage storage, int partId, Supplier<ContentCompressor> newCompressor, WriterOptions options)
      throws IOException {
    java.util.OptionalLong blockAlignment = options.blockAlignment();
    this.options = options;
    this.partId = partId;
    this.fileName = FileNames.partFileName(partId);
    this.file = storage.create(fileName, FileUse.CONTENT);
    this.preparer = new EntryPreparer(newCompressor);
    this.blockSize = blockAlignment.isPresent() ? blockAlignment.getAsLong() : file.blockSize();
    file.write(FileFraming.header(FormatConstants.KIND_PART));
    committedLength = file.position();
  }

  public int partId() {
    return partId;
  }

  public String fileName() {
    return fileName;
  }

  public synchronized long committedLength() {
    return committedLength;
  }

  public boolean isBroken() {
    return broken;
  }

  /**
   * The rows of the entries written, sorted by name; once, after {@link #finish}. The caller closes
   * them (their runs on disk go).
   */
  public synchronized SortedRows sortedRows() throws IOException {
    if (!finished) {
      throw new IllegalStateException("part " + partId + " is not finished");
    }
    return rows.finish();
  }

  /**
   * What a checkpoint made committable: the rows written since the one before, sorted by name (the
   * caller closes them), and the part's committed length now.
   */
  public record Checkpoint(int partId, SortedRows rows, long committedLength) {}

  /**
   * Makes the entries added so far committable while the part stays open for more, for a writer
   * that commits often (one part per commit would leave a file per commit): writes the group being
   * filled, syncs the file, and hands over the rows written since the last checkpoint. Only for a
   * file {@link AppendableFile#readableWhileOpen()}, so that readers of the commit see the bytes it
   * names.
   */
  public synchronized Checkpoint checkpoint() throws IOException {
    if (finished || broken) {
      throw new IllegalStateException("part " + partId + " is finished or failed");
    }
    GroupBuilder last = group;
    group = new GroupBuilder();
    writeGroup(last);
    file.sync();
    RowSorter written = rows;
    rows = new RowSorter();
    return new Checkpoint(partId, written.finish(), committedLength);
  }

  /** A committed manifest names this part: closing the writer must not delete it. */
  public synchronized void markCommitted() {
    committed = true;
  }

  /** Whether a committed manifest names this part. */
  public synchronized boolean committed() {
    return committed;
  }

  /** Whether this part can stay open across commits ({@link #checkpoint}). */
  public boolean readableWhileOpen() {
    return file.readableWhileOpen();
  }

  /** Entries added since the last checkpoint: written, and waiting in a group. */
  public synchronized long entryCount() {
    return rows.size() + group.members().size();
  }

  /** Zero bytes written so far to keep entries from straddling block boundaries. */
  public synchronized long paddingBytes() {
    return paddingBytes;
  }

  /**
   * Pads with zero bytes to the next block boundary if an entry of {@code entryLength} bytes
   * written next would straddle one and fits in a block (FORMAT.md "Part file"), so that reading it
   * touches one block: one DataNode, one round trip. A larger entry straddles anyway.
   */
  private void alignFor(long entryLength) throws IOException {
    if (blockSize <= 0 || entryLength > blockSize) {
      return;
    }
    long inBlock = committedLength % blockSize;
    if (inBlock == 0 || inBlock + entryLength <= blockSize) {
      return;
    }
    long pad = blockSize - inBlock;
    byte[] zeros = new byte[(int) Math.min(pad, 64 * 1024)];
    for (long left = pad; left > 0; left -= zeros.length) {
      file.write(zeros, 0, (int) Math.min(zeros.length, left));
    }
    paddingBytes += pad;
    committedLength += pad;
  }

  /**
   * Compresses (if it shrinks) and appends {@code content[0, length)}, held in memory; a small
   * entry joins the group being filled (the array is not kept either way).
   */
  public void append(String name, byte[] nameUtf8, byte[] content, int length, EntryMetadata meta)
      throws IOException {
    if (broken) {
      throw new IllegalStateException("part " + partId + " failed earlier");
    }
    if (options.inGroup(length) && GroupBuilder.fits(nameUtf8, meta)) {
      GroupBuilder full = null;
      synchronized (this) {
        group.add(name, nameUtf8, content, length, meta);
        if (group.rawBytes() >= options.settings().groupBytes()) {
          full = group;
          group = new GroupBuilder();
        }
      }
      if (full != null) {
        writeGroup(full);
      }
      return;
    }
    EntryPreparer.Prepared prepared =
        ChunkedEncoder.chunks(length)
            ? preparer.prepareChunked(nameUtf8, content, length, meta)
            : preparer.prepare(
                content,
                length,
                (codec, dictionaryId, storedLength) ->
                    EntryCodec.encodeHeader(
                        nameUtf8,
                        codec,
                        dictionaryId,
                        length,
                        storedLength,
                        meta.mtimeMillis(),
                        meta.mode(),
                        meta.attributes()));
    synchronized (this) {
      long offset = write(prepared);
      record(
          name,
          prepared.codec(),
          prepared.dictionaryId(),
          length,
          prepared.storedLength(),
          meta,
          offset);
    }
  }

  /**
   * Writes a prepared entry: padding if it would straddle a block, the header, the stored content,
   * the CRC32C of the raw content. Returns its offset. A failure marks the part broken.
   */
  private synchronized long write(EntryPreparer.Prepared entry) throws IOException {
    if (broken) {
      throw new IllegalStateException("part " + partId + " failed earlier");
    }
    try {
      alignFor(entry.length());
      long offset = committedLength;
      file.write(entry.header().array(), 0, entry.header().size());
      file.write(entry.content(), 0, entry.contentLength());
      file.write(entry.table());
      file.write(entry.crc());
      return offset;
    } catch (IOException | RuntimeException e) {
      broken = true;
      throw e;
    }
  }

  /** Writes a filled group as one entry, compressed if that shrinks it, and its members' rows. */
  private void writeGroup(GroupBuilder full) throws IOException {
    if (full.isEmpty()) {
      return;
    }
    int rawLength = full.rawBytes();
    EntryPreparer.Prepared prepared =
        preparer.prepare(
            full.rawArray(),
            rawLength,
            (codec, dictionaryId, storedLength) ->
                EntryCodec.encodeGroupHeader(codec, dictionaryId, rawLength, storedLength));
    synchronized (this) {
      long offset = write(prepared);
      long length = file.position() - offset;
      List<GroupBuilder.Member> members = full.members();
      for (int i = 0; i < members.size(); i++) {
        rows.add(
            members
                .get(i)
                .row(
                    prepared.codec(),
                    prepared.dictionaryId(),
                    partId,
                    offset,
                    length,
                    i,
                    members.size()));
      }
      committedLength = file.position();
    }
  }

  /**
   * Appends {@code length} bytes from a stream, uncompressed, without holding them in memory. The
   * content CRC is computed on the way and written after the content.
   *
   * @throws EOFException if the stream ends early (the source shrank while being read)
   */
  public synchronized void appendStream(
      String name, byte[] nameUtf8, InputStream in, long length, EntryMetadata meta, String source)
      throws IOException {
    if (broken) {
      throw new IllegalStateException("part " + partId + " failed earlier");
    }
    boolean chunked = ChunkedEncoder.chunks(length);
    int shift = ChunkedEncoder.chunkShift(length);
    long stored = chunked ? length + ChunkedEncoder.tableLength(length, shift) : length;
    ByteWriter header =
        EntryCodec.encodeHeader(
            nameUtf8,
            chunked ? shift : 0,
            Codec.NONE,
            0,
            length,
            stored,
            meta.mtimeMillis(),
            meta.mode(),
            meta.attributes());
    long offset;
    try {
      alignFor(header.size() + stored + EntryCodec.TRAILER_BYTES);
      offset = committedLength;
      file.write(header.array(), 0, header.size());
      RawCopy copied = RawCopy.copy(in, file, length, shift, source);
      if (chunked) {
        file.write(copied.table().bytes());
      }
      file.write(EntryCodec.trailer(copied.contentCrc()));
    } catch (IOException | RuntimeException e) {
      broken = true;
      throw e;
    }
    record(name, Codec.NONE, 0, length, stored, meta, offset);
  }

  /**
   * Appends an entry, or a group with all its members, copied verbatim from another part
   * (compaction). REQUIRES: the bytes were checked by the caller; {@code olds} are the rows of the
   * entry, or of every member of the group (same place, same length). Returns the rows in their new
   * place.
   */
  public synchronized List<EntryInfo> appendCopy(
      List<EntryInfo> olds, InputStream entryBytes, long length, byte[] buffer) throws IOException {
    long offset;
    try {
      alignFor(length);
      offset = committedLength;
      long left = length;
      while (left > 0) {
        int n = entryBytes.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          throw new EOFException(
              "entry '" + olds.get(0).name() + "' ended " + left + " bytes early");
        }
        file.write(buffer, 0, n);
        left -= n;
      }
    } catch (IOException | RuntimeException e) {
      broken = true;
      throw e;
    }
    List<EntryInfo> moved = new ArrayList<>(olds.size());
    for (EntryInfo old : olds) {
      moved.add(old.movedTo(partId, offset));
      rows.add(moved.get(moved.size() - 1));
    }
    committedLength = file.position();
    return moved;
  }

  private synchronized void record(
      String name,
      Codec codec,
      int dictionaryId,
      long rawLength,
      long storedLength,
      EntryMetadata meta,
      long offset)
      throws IOException {
    long end = file.position();
    EntryInfo row =
        new EntryInfo(
            name,
            false,
            rawLength,
            storedLength,
            codec,
            dictionaryId,
            meta.mtimeMillis(),
            meta.mode(),
            meta.attributes(),
            partId,
            offset,
            end - offset,
            0,
            0); // on its own, not in a group
    rows.add(row);
    committedLength = end;
  }

  /** Flushes, syncs and closes the file. After a failure the file is closed all the same. */
  public synchronized void finish() throws IOException {
    if (finished) {
      return;
    }
    finished = true;
    try {
      if (!broken) {
        GroupBuilder last = group;
        group = new GroupBuilder();
        writeGroup(last);
        rows.release();
      }
      file.sync();
      fileLength = file.position();
    } finally {
      try {
        file.close();
      } finally {
        preparer.close();
      }
    }
  }

  /**
   * Whether the finished file holds its committed entries and nothing else, so that it can be
   * joined to another part (a failed write leaves an uncommitted tail, which must stay at an end).
   */
  public synchronized boolean endsAtCommittedLength() {
    return finished && !broken && fileLength == committedLength;
  }

  /** Closes without caring about errors, for an aborted write. */
  public synchronized void closeQuietly() {
    finished = true;
    try {
      file.close();
    } catch (IOException | RuntimeException e) {
      // Aborting: the file is about to be deleted.
    }
    rows.discard();
    preparer.close();
  }
}
