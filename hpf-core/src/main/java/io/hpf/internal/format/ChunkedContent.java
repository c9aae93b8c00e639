package io.hpf.internal.format;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;

/**
 * Content stored in independent chunks (FORMAT.md "Chunked content"): the chunks' stored bytes back
 * to back, then a table of one slot per chunk (where its stored bytes end, the CRC32C of its raw
 * bytes). Each chunk is decoded alone and checked against its own CRC32C before any of its bytes is
 * handed out, so a range or a seek reads and checks only the chunks it touches, and a stream of the
 * whole content never hands out a byte it has not checked.
 *
 * <p>Every slot is bounded before it is used: a chunk's stored bytes lie after the previous chunk's
 * and inside the chunk area, the last chunk's end where the area ends, raw chunks are as long
 * stored as raw, and compressed ones at most twice the chunk size. A slot that is wrong in any
 * other way makes its chunk fail its CRC32C.
 */
final class ChunkedContent {
  /** Slots read at once by a stream: 48 KiB of table. */
  private static final int SLOT_WINDOW = 4096;

  /** Reads bytes of the entry, at offsets from its first byte. */
  @FunctionalInterface
  interface EntryBytes {
    byte[] read(long at, int length) throws IOException;
  }

  private final String path;
  private final long entryOffset;
  private final EntryHeader header;
  private final EntryBytes bytes;
  private final Dictionary dictionary;
  private final long tableAt; // from the entry's first byte
  private final long area; // bytes of the chunks' stored content

  private ChunkedContent(
      String path, long entryOffset, EntryHeader header, EntryBytes bytes, Dictionary dictionary) {
    this.path = path;
    this.entryOffset = entryOffset;
    this.header = header;
    this.bytes = bytes;
    this.dictionary = dictionary;
    this.area = header.storedLength() - header.chunkTableLength();
    this.tableAt = header.headerLength() + area;
  }

  /** The chunked content of {@code entry} in {@code file}, read as it is needed. */
  static ChunkedContent inFile(
      ReadableFile file, String path, PartEntry entry, Dictionary dictionary) {
    long at = entry.offset();
    EntryBytes fromFile =
        (offset, length) -> {
          byte[] b = new byte[length];
          file.streamFully(at + offset, b, 0, length);
          return b;
        };
    return new ChunkedContent(path, at, entry.header(), fromFile, dictionary);
  }

  /** The chunked content of an entry held whole in {@code entry} from index 0. */
  static ChunkedContent inMemory(
      String path, long entryOffset, EntryHeader header, byte[] entry, Dictionary dictionary) {
    EntryBytes fromArray =
        (offset, length) ->
            java.util.Arrays.copyOfRange(entry, (int) offset, (int) offset + length);
    return new ChunkedContent(path, entryOffset, header, fromArray, dictionary);
  }

  /** The whole content, every chunk checked and the entry's CRC32C of it all. */
  byte[] whole() throws IOException {
    byte[] content = new byte[(int) header.rawLength()];
    try (InputStream in = open(0)) {
      int n = in.readNBytes(content, 0, content.length);
      if (n != content.length || in.read() >= 0) {
        throw corrupt(tableAt, "chunks hold " + n + " bytes, the header says " + content.length);
      }
    }
    return content;
  }

  /**
   * A stream of the content from raw offset {@code from} on. A stream from 0 read to its end also
   * checks the entry's CRC32C of the whole content (as an unchunked entry is checked).
   */
  InputStream open(long from) {
    if (from < 0 || from > header.rawLength()) {
      throw new IllegalArgumentException(
          "offset " + from + " outside content of " + header.rawLength() + " bytes");
    }
    return new ChunkStream(from);
  }

  /** The raw bytes of chunk {@code i}, stored at {@code [start, end)} of the area, checked. */
  private byte[] chunk(int i, long start, long end, int crc) throws IOException {
    long rawStart = (long) i << header.chunkShift();
    int raw = (int) Math.min(header.chunkSize(), header.rawLength() - rawStart);
    long stored = end - start;
    long slotAt = tableAt + (long) i * FormatConstants.CHUNK_SLOT_BYTES;
    boolean fits =
        start >= 0
            && stored > 0
            && end <= area
            && (header.codec() == Codec.NONE ? stored == raw : stored <= 2L * header.chunkSize());
    if (!fits) {
      throw corrupt(
          slotAt,
          "chunk "
              + i
              + " stored at ["
              + start
              + ", "
              + end
              + ") does not fit the "
              + area
              + " bytes of chunks ("
              + raw
              + " raw bytes)");
    }
    if (i == header.chunkCount() - 1 && end != area) { // no spare bytes go unchecked
      throw corrupt(
          slotAt,
          "the last chunk ("
              + i
              + ") ends at "
              + end
              + ", not at the end of the "
              + area
              + " bytes of chunks");
    }
    long storedAt = header.headerLength() + start;
    byte[] content;
    try {
      content =
          ContentDecompressor.decompress(
              header.codec(), bytes.read(storedAt, (int) stored), 0, (int) stored, raw, dictionary);
    } catch (IllegalArgumentException e) {
      throw corrupt(storedAt, "chunk " + i + " does not decompress: " + e.getMessage());
    }
    int actual = EntryCodec.crc32c(content, 0, content.length);
    FileFraming.checkCrc(
        path,
        entryOffset + storedAt,
        ContentCheck.label(header)
            + ": chunk "
            + i
            + " (raw bytes "
            + rawStart
            + " to "
            + (rawStart + raw)
            + "):",
        actual,
        crc);
    return content;
  }

  private CorruptArchiveException corrupt(long at, String problem) {
    return new CorruptArchiveException(
        path, entryOffset + at, ContentCheck.label(header) + ": " + problem);
  }

  /** Hands out checked chunks one after another, reading the table a window of slots at a time. */
  private final class ChunkStream extends BulkInputStream {
    private boolean whole;
    private final CRC32C crc = new CRC32C();
    private int next; // the chunk to read next
    private long nextStart; // where its stored bytes start in the area
    private byte[] current = new byte[0];
    private int position;
    private int windowFirst = -1;
    private byte[] window;

    ChunkStream(long from) {
      this.whole = from == 0;
      this.next = (int) (from >>> header.chunkShift());
      this.position = (int) (from - ((long) next << header.chunkShift()));
      this.nextStart = -1; // found from the previous slot when the first chunk is read
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
      if (count == 0) {
        return 0;
      }
      if (position >= current.length && !advance()) {
        return -1;
      }
      int n = Math.min(count, current.length - position);
      System.arraycopy(current, position, buffer, offset, n);
      position += n;
      return n;
    }

    /** Skips within the current chunk, or jumps to the chunk holding the target unread. */
    @Override
    public long skip(long n) throws IOException {
      if (n <= 0) {
        return 0;
      }
      long chunkStart =
          current.length == 0 ? (long) next << header.chunkShift() : rawOffset(next - 1);
      long at = chunkStart + position;
      long target = Math.min(header.rawLength(), at + n);
      if (target < chunkStart + current.length) {
        position += (int) (target - at);
        return target - at;
      }
      whole = false; // chunks are passed over unread: the CRC of the whole cannot be computed
      current = new byte[0];
      next = (int) (target >>> header.chunkShift());
      position = (int) (target - rawOffset(next));
      nextStart = -1;
      return target - at;
    }

    private long rawOffset(int chunk) {
      return (long) chunk << header.chunkShift();
    }

    /** Decodes and checks the next chunk; false at the end (where a whole read checks it all). */
    private boolean advance() throws IOException {
      int count = header.chunkCount();
      if (next >= count) {
        if (whole && next == count) {
          checkWhole();
          next++;
        }
        return false;
      }
      int skipInto = current.length == 0 ? position : 0; // a stream opened inside this chunk
      if (nextStart < 0) {
        nextStart = next == 0 ? 0 : slotEnd(next - 1);
      }
      long end = slotEnd(next);
      current = chunk(next, nextStart, end, slotCrc(next));
      if (whole) {
        crc.update(current, 0, current.length);
      }
      nextStart = end;
      next++;
      position = skipInto;
      return position < current.length || advance();
    }

    private void checkWhole() throws IOException {
      byte[] trailer = bytes.read(header.headerLength() + header.storedLength(), 4);
      ContentCheck.checkCrc(
          path,
          entryOffset + header.headerLength(),
          ContentCheck.label(header),
          (int) crc.getValue(),
          ByteReader.getU32(trailer, 0));
    }

    private long slotEnd(int i) throws IOException {
      return ByteReader.getU64(slots(i), slotIndex(i));
    }

    private int slotCrc(int i) throws IOException {
      return ByteReader.getU32(slots(i), slotIndex(i) + 8);
    }

    private int slotIndex(int i) {
      return (i - windowFirst) * FormatConstants.CHUNK_SLOT_BYTES;
    }

    /** The window of slots holding slot {@code i}, read if it is not the current one. */
    private byte[] slots(int i) throws IOException {
      if (windowFirst < 0 || i < windowFirst || i >= windowFirst + SLOT_WINDOW) {
        windowFirst = i;
        int n = Math.min(SLOT_WINDOW, header.chunkCount() - i);
        window =
            bytes.read(
                tableAt + (long) i * FormatConstants.CHUNK_SLOT_BYTES,
                n * FormatConstants.CHUNK_SLOT_BYTES);
      }
      return window;
    }
  }
}
