package io.hpf.internal.catalog;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ByteWriter;
import io.hpf.internal.format.ChecksummedOutput;
import io.hpf.internal.format.ContentCompressor;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes a segment's catalog (FORMAT.md "Catalog"): rows sorted by name bytes, prefix-compressed
 * into blocks of about {@value #BLOCK_TARGET_BYTES} bytes, each LZ4-compressed with its own CRC32C,
 * then a block index (first name of each block), a fixed trailer and the footer. This is the HFile
 * layout with a single-level index.
 *
 * <p>A one-shot state machine: {@link #add} rows in strictly increasing name order, then {@link
 * #finish} once. Not thread-safe.
 */
public final class CatalogWriter {
  static final int BLOCK_TARGET_BYTES = 32 * 1024;
  static final int BLOCK_HEADER_BYTES = 13;
  static final int TRAILER_BYTES = 32;
  static final int FLAG_DELETED = 1;

  /** Row flag bit 1: the entry is a member of a group; its index and the group's size follow. */
  static final int FLAG_IN_GROUP = 2;

  private enum State {
    WRITING,
    FINISHED
  }

  private final AppendableFile file;
  private final ChecksummedOutput out;
  private final ContentCompressor lz4 = new ContentCompressor(Codec.LZ4, null, 0);
  private final ByteWriter block = new ByteWriter(BLOCK_TARGET_BYTES + 1024);
  private final ByteWriter index = new ByteWriter();
  private State state = State.WRITING;
  private byte[] previousName = new byte[0];
  private byte[] blockFirstName;
  private int blockEntries;
  private int blockCount;
  private long entryCount;

  public CatalogWriter(AppendableFile file) throws IOException {
    this.file = file;
    this.out = new ChecksummedOutput(file);
    out.write(
        FileFraming.header(FormatConstants.KIND_CATALOG), 0, FormatConstants.FILE_HEADER_BYTES);
  }

  /** Adds a row. REQUIRES: its name sorts after the previous row's (unsigned UTF-8 bytes). */
  public void add(EntryInfo entry) throws IOException {
    add(EntryNames.utf8(entry.name()), entry);
  }

  /** Adds a row whose name's UTF-8 bytes are {@code name}, as {@link #add(EntryInfo)}. */
  public void add(byte[] name, EntryInfo entry) throws IOException {
    writeRow(block, name, begin(name, entry.name()), entry);
    rowDone(name);
  }

  /** Adds a row as {@link CatalogRow#encode} made it: its fields are copied, not made again. */
  public void addEncoded(byte[] row) throws IOException {
    byte[] name = CatalogRow.name(row);
    int shared = begin(name, null);
    block.varLong(shared).varLong(name.length - shared).bytes(name, shared, name.length - shared);
    int fields = CatalogRow.fieldsStart(row);
    block.bytes(row, fields, row.length - fields);
    rowDone(name);
  }

  /** Checks the next row's order; returns the bytes its name shares with the previous row's. */
  private int begin(byte[] name, String text) {
    if (state != State.WRITING) {
      throw new IllegalStateException("catalog already finished");
    }
    if (entryCount > 0 && Arrays.compareUnsigned(previousName, name) >= 0) {
      throw new IllegalArgumentException(
          "catalog rows out of order: '"
              + (text != null ? text : new String(name, StandardCharsets.UTF_8))
              + "' after '"
              + new String(previousName, StandardCharsets.UTF_8)
              + "'");
    }
    if (blockFirstName == null) {
      blockFirstName = name;
    }
    int shared = blockEntries == 0 ? 0 : Arrays.mismatch(previousName, name);
    if (shared < 0) {
      shared = name.length;
    }
    return Math.min(shared, Math.min(previousName.length, name.length));
  }

  private void rowDone(byte[] name) throws IOException {
    previousName = name;
    blockEntries++;
    entryCount++;
    if (block.size() >= BLOCK_TARGET_BYTES) {
      flushBlock();
    }
  }

  /**
   * Writes one row (FORMAT.md "Catalog"): its name less the {@code shared} bytes it has in common
   * with the row before, its flags, and, unless a tombstone, its fields and attributes.
   */
  static void writeRow(ByteWriter block, byte[] name, int shared, EntryInfo entry) {
    block.varLong(shared).varLong(name.length - shared).bytes(name, shared, name.length - shared);
    block.u8(entry.deleted() ? FLAG_DELETED : entry.inGroup() ? FLAG_IN_GROUP : 0);
    if (entry.deleted()) {
      return;
    }
    block.varLong(entry.rawLength()).varLong(entry.storedLength()).u8(entry.codec().id());
    block.varLong(entry.dictionaryId() & 0xFFFFFFFFL).zigZag(entry.mtimeMillis());
    block.varLong(entry.mode() & 0xFFFFFFFFL).varLong(entry.partId() & 0xFFFFFFFFL);
    block.varLong(entry.offset()).varLong(entry.entryLength());
    if (entry.inGroup()) {
      block.varLong(entry.member()).varLong(entry.members());
    }
    block.varLong(entry.attributes().size());
    for (Map.Entry<String, String> a : entry.attributes().entrySet()) {
      byte[] k = EntryNames.utf8(a.getKey());
      byte[] v = EntryNames.utf8(a.getValue());
      block.varLong(k.length).bytes(k).varLong(v.length).bytes(v);
    }
  }

  private void flushBlock() throws IOException {
    if (blockEntries == 0) {
      return;
    }
    byte[] compressed = lz4.compress(block.array(), block.size());
    Codec codec = compressed == null ? Codec.NONE : Codec.LZ4;
    byte[] stored = compressed == null ? block.toByteArray() : compressed;
    long offset = out.position();
    ByteWriter header = new ByteWriter(BLOCK_HEADER_BYTES);
    header.u8(codec.id()).u32(block.size()).u32(stored.length);
    header.u32(EntryCodec.crc32c(block.array(), 0, block.size()));
    out.write(header);
    out.write(stored, 0, stored.length);
    index.u64(offset).u32(BLOCK_HEADER_BYTES + stored.length).u32(blockEntries);
    index.u16(blockFirstName.length).bytes(blockFirstName);
    blockCount++;
    block.reset();
    blockEntries = 0;
    blockFirstName = null;
  }

  /** Writes the last block, the index, trailer and footer, and syncs. Returns the file length. */
  public long finish() throws IOException {
    if (state != State.WRITING) {
      throw new IllegalStateException("catalog already finished");
    }
    flushBlock();
    long indexOffset = out.position();
    ByteWriter indexSection = new ByteWriter(index.size() + 4);
    indexSection.u32(blockCount).bytes(index.array(), 0, index.size());
    out.write(indexSection);
    ByteWriter trailer = new ByteWriter(TRAILER_BYTES);
    trailer.u64(indexOffset).u32(indexSection.size());
    trailer.u32(EntryCodec.crc32c(indexSection.array(), 0, indexSection.size()));
    trailer.u64(entryCount).u32(blockCount).u32(0);
    out.write(trailer);
    out.writeFooter();
    file.sync();
    lz4.close();
    state = State.FINISHED;
    return file.position();
  }

  public long entryCount() {
    return entryCount;
  }
}
