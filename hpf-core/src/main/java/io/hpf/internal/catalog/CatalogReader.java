package io.hpf.internal.catalog;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ByteReader;
import io.hpf.internal.format.ContentDecompressor;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileFraming;
import io.hpf.internal.format.FormatConstants;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Reads a catalog written by {@link CatalogWriter}. Opening reads the trailer and the block index
 * (two reads) and keeps the index in memory; a listing from a prefix then binary-searches the index
 * and reads only the blocks it returns rows from: O(log n + k). Thread-safe.
 */
public final class CatalogReader {
  /** The smallest block index entry: offset, size, row count and first-name length. */
  private static final int MIN_INDEX_ENTRY_BYTES = 18;

  /** The smallest row: a tombstone with an empty suffix (shared, suffix length, flags). */
  private static final int MIN_ROW_BYTES = 3;

  private final String fileName;
  private final ReadableFile file;
  private final long entryCount;
  private final long[] blockOffsets;
  private final int[] blockBytes;
  private final int[] blockEntries;
  private final byte[][] firstNames;

  private CatalogReader(
      String fileName,
      ReadableFile file,
      long entryCount,
      long[] blockOffsets,
      int[] blockBytes,
      int[] blockEntries,
      byte[][] firstNames) {
    this.fileName = fileName;
    this.file = file;
    this.entryCount = entryCount;
    this.blockOffsets = blockOffsets;
    this.blockBytes = blockBytes;
    this.blockEntries = blockEntries;
    this.firstNames = firstNames;
  }

  /**
   * Opens a catalog and checks its trailer and index against the file and the manifest.
   *
   * @param expectedLength the length the manifest records
   * @param expectedEntries the row count the manifest records
   */
  public static CatalogReader open(
      String fileName, ReadableFile file, long expectedLength, long expectedEntries)
      throws IOException {
    long length = file.length();
    int tailBytes = CatalogWriter.TRAILER_BYTES + FormatConstants.FOOTER_BYTES;
    if (length != expectedLength) {
      throw new CorruptArchiveException(
          fileName,
          Math.min(length, expectedLength),
          "file is " + length + " bytes, manifest says " + expectedLength);
    }
    if (length < FormatConstants.FILE_HEADER_BYTES + tailBytes) {
      throw new CorruptArchiveException(fileName, 0, "file is too short for a catalog: " + length);
    }
    byte[] head = file.readFully(0, FormatConstants.FILE_HEADER_BYTES);
    FileFraming.checkHeader(fileName, head, 0, head.length, FormatConstants.KIND_CATALOG);
    Trailer trailer = Trailer.read(fileName, file, length - tailBytes, expectedEntries);
    byte[] index = file.readFully(trailer.indexOffset(), trailer.indexLength());
    int actualCrc = EntryCodec.crc32c(index, 0, index.length);
    FileFraming.checkCrc(
        fileName, trailer.indexOffset(), "block index", actualCrc, trailer.indexCrc());
    return readIndex(
        fileName, file, trailer, new ByteReader(fileName, trailer.indexOffset(), index));
  }

  /**
   * The catalog's trailer (FORMAT.md "Catalog"), before the footer at {@code tailAt}: where its
   * block index is, its CRC32C, and the counts it claims, checked against the file and the
   * manifest.
   */
  private record Trailer(
      long indexOffset, int indexLength, int indexCrc, long entries, int blockCount) {
    static Trailer read(String fileName, ReadableFile file, long tailAt, long expectedEntries)
        throws IOException {
      byte[] tail =
          file.readFully(tailAt, CatalogWriter.TRAILER_BYTES + FormatConstants.FOOTER_BYTES);
      FileFraming.checkFooterMagic(
          fileName, tail, CatalogWriter.TRAILER_BYTES, tailAt + CatalogWriter.TRAILER_BYTES);
      ByteReader in = new ByteReader(fileName, tailAt, tail, 0, CatalogWriter.TRAILER_BYTES);
      Trailer trailer =
          new Trailer(
              in.u64("index offset"),
              in.count("index length"),
              in.u32("index CRC"),
              in.u64("entry count"),
              in.count("block count"));
      if (in.u32("reserved") != 0) {
        throw in.corrupt("reserved trailer field is not 0");
      }
      if (trailer.indexOffset < FormatConstants.FILE_HEADER_BYTES
          || trailer.indexOffset + trailer.indexLength != tailAt) {
        throw new CorruptArchiveException(
            fileName,
            tailAt,
            "index at "
                + trailer.indexOffset
                + " of "
                + trailer.indexLength
                + " bytes does not end at the trailer");
      }
      if (trailer.entries != expectedEntries) {
        throw new CorruptArchiveException(
            fileName,
            tailAt + 16,
            "catalog has " + trailer.entries + " rows, manifest says " + expectedEntries);
      }
      return trailer;
    }
  }

  /** Reads the checked block index: blocks one after the other, adding up to the trailer's. */
  private static CatalogReader readIndex(
      String fileName, ReadableFile file, Trailer trailer, ByteReader in)
      throws CorruptArchiveException {
    int blockCount = trailer.blockCount();
    if (in.count("block count") != blockCount) {
      throw in.corrupt("block count differs from the trailer's " + blockCount);
    }
    if (blockCount > in.remaining() / MIN_INDEX_ENTRY_BYTES) {
      throw in.corrupt(
          blockCount + " blocks cannot fit an index of " + trailer.indexLength() + " bytes");
    }
    long[] offsets = new long[blockCount];
    int[] sizes = new int[blockCount];
    int[] counts = new int[blockCount];
    byte[][] names = new byte[blockCount][];
    long expectedOffset = FormatConstants.FILE_HEADER_BYTES;
    long total = 0;
    for (int i = 0; i < blockCount; i++) {
      offsets[i] = in.u64("block offset");
      sizes[i] = in.count("block size");
      counts[i] = in.count("block entry count");
      names[i] = in.bytes(in.u16("first name length"), "first name");
      if (offsets[i] != expectedOffset || sizes[i] < CatalogWriter.BLOCK_HEADER_BYTES) {
        throw in.corrupt("block " + i + " at " + offsets[i] + ", expected " + expectedOffset);
      }
      expectedOffset += sizes[i];
      total += counts[i];
    }
    if (expectedOffset != trailer.indexOffset()
        || total != trailer.entries()
        || in.remaining() != 0) {
      throw in.corrupt(
          "blocks do not add up to the index ("
              + total
              + " rows, "
              + trailer.entries()
              + " expected)");
    }
    return new CatalogReader(fileName, file, trailer.entries(), offsets, sizes, counts, names);
  }

  public long entryCount() {
    return entryCount;
  }

  public int blockCount() {
    return blockOffsets.length;
  }

  /** The last block decoded: a directory listing jumps ahead mostly within one block. */
  private record DecodedBlock(int index, List<EntryInfo> rows) {}

  private volatile DecodedBlock lastBlock;

  /** Reads, checks and decodes one block (the last one decoded is kept, read-only). */
  public List<EntryInfo> readBlock(int block) throws IOException {
    DecodedBlock last = lastBlock;
    if (last != null && last.index() == block) {
      return last.rows();
    }
    BlockRows cursor = blockRows(block);
    List<EntryInfo> rows = new ArrayList<>(blockEntries[block]);
    while (cursor.next()) {
      rows.add(cursor.row());
    }
    rows = Collections.unmodifiableList(rows);
    lastBlock = new DecodedBlock(block, rows);
    return rows;
  }

  /** The last block's bytes read: a listing's seeks land in one block often. */
  private record RawBlock(int index, byte[] raw) {}

  private volatile RawBlock lastRaw;

  /** One block's rows from the start, read as asked for (the block read and checked first). */
  private BlockRows blockRows(int block) throws IOException {
    RawBlock last = lastRaw;
    byte[] raw;
    if (last != null && last.index() == block) {
      raw = last.raw();
    } else {
      raw = rawBlock(block);
      lastRaw = new RawBlock(block, raw);
    }
    return new BlockRows(fileName, blockOffsets[block], raw, blockEntries[block]);
  }

  /** Reads one block, checks its header and CRC, and returns its decompressed rows' bytes. */
  private byte[] rawBlock(int block) throws IOException {
    long at = blockOffsets[block];
    byte[] bytes = file.readFully(at, blockBytes[block]);
    ByteReader header = new ByteReader(fileName, at, bytes, 0, CatalogWriter.BLOCK_HEADER_BYTES);
    int codecId = header.u8("block codec");
    int rawLength = header.count("block raw length");
    int storedLength = header.count("block stored length");
    int crc = header.u32("block CRC");
    Codec codec = Codec.byId(codecId);
    if (codec == null
        || codec == Codec.ZSTD
        || storedLength != bytes.length - CatalogWriter.BLOCK_HEADER_BYTES
        || rawLength > FormatConstants.MAX_CATALOG_BLOCK_RAW_BYTES
        || (codec == Codec.NONE && rawLength != storedLength)
        || blockEntries[block] > rawLength / MIN_ROW_BYTES) {
      throw new CorruptArchiveException(
          fileName,
          at,
          "block header is inconsistent (codec "
              + codecId
              + ", raw "
              + rawLength
              + ", stored "
              + storedLength
              + ", "
              + blockEntries[block]
              + " rows)");
    }
    byte[] raw;
    try {
      raw =
          ContentDecompressor.decompress(
              codec, bytes, CatalogWriter.BLOCK_HEADER_BYTES, storedLength, rawLength, null);
    } catch (IllegalArgumentException e) {
      throw new CorruptArchiveException(
          fileName, at, "block does not decompress: " + e.getMessage(), e);
    }
    int actual = EntryCodec.crc32c(raw, 0, raw.length);
    FileFraming.checkCrc(fileName, at, "block", actual, crc);
    return raw;
  }

  /** The row of a name, or null. One block read. */
  public EntryInfo find(String name) throws IOException {
    byte[] key = EntryNames.utf8(name);
    int block = lastBlockStartingAtOrBefore(key);
    if (block < 0) {
      return null;
    }
    for (EntryInfo row : readBlock(block)) {
      if (row.name().equals(name)) {
        return row;
      }
    }
    return null;
  }

  private int lastBlockStartingAtOrBefore(byte[] key) {
    int lo = 0;
    int hi = firstNames.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(firstNames[mid], key) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * Rows whose names start with {@code prefix} ("" for all), in name order, reading blocks as the
   * iteration reaches them. I/O errors surface as {@link UncheckedIOException}.
   */
  public Iterator<EntryInfo> list(String prefix) {
    return list(prefix, prefix);
  }

  /**
   * Rows whose names start with {@code prefix} and are not before {@code from} (in byte order), in
   * name order: one binary search over the blocks' first names, then blocks read as the iteration
   * reaches them. A directory listing uses it to jump over a subdirectory's rows.
   */
  public Iterator<EntryInfo> list(String prefix, String from) {
    byte[] key = EntryNames.utf8(prefix);
    byte[] start = EntryNames.utf8(from);
    if (Arrays.compareUnsigned(start, key) < 0) {
      start = key;
    }
    byte[] startKey = start;
    int first = Math.max(0, lastBlockStartingAtOrBefore(startKey));
    return new Iterator<>() {
      private int nextBlock = first;
      private BlockRows rows;
      private boolean reachedStart;
      private EntryInfo next;
      private boolean done;

      @Override
      public boolean hasNext() {
        try {
          while (next == null && !done) {
            if (rows != null && rows.next()) {
              if (!reachedStart && rows.compareName(startKey) < 0) {
                continue; // before the start: its name compared, nothing made of it
              }
              reachedStart = true;
              if (rows.nameStartsWith(key)) {
                next = rows.row();
              } else {
                done = true;
              }
            } else if (nextBlock < firstNames.length) {
              rows = blockRows(nextBlock++);
            } else {
              done = true;
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return next != null;
      }

      @Override
      public EntryInfo next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        EntryInfo row = next;
        next = null;
        return row;
      }
    };
  }

  /** Closes the underlying file; errors are ignored since nothing was written. */
  public void closeQuietly() {
    try {
      file.close();
    } catch (java.io.IOException e) {
      // Read-only file: nothing to lose.
    }
  }
}
