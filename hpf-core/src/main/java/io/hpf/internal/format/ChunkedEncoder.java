package io.hpf.internal.format;

import io.hpf.archive.model.Codec;
import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32C;

/**
 * Writes content in independent chunks (FORMAT.md "Chunked content"), so that a reader of a range
 * decodes and checks only the chunks it touches. Writers chunk every entry larger than {@link
 * #MIN_RAW_BYTES} that is not a group: below that, a reader decodes and checks an entry whole for
 * any range at little cost.
 */
public final class ChunkedEncoder {
  /** Entries of more raw bytes than this are stored in chunks. */
  public static final int MIN_RAW_BYTES = 1 << 20;

  /**
   * 256 KiB chunks, larger only to keep a chunk table at most 65,536 slots (an entry over 16 GiB).
   * Chunks of 64 KiB stored highly compressible text 19% larger than one zstd frame does, 256 KiB
   * ones 6% (docs/BENCHMARKS.md), and a range still decodes at most 256 KiB (about 75 µs of zstd).
   */
  private static final int DEFAULT_SHIFT = 18;

  private static final int MAX_CHUNKS_WANTED = 1 << 16;

  /**
   * The chunk size (log2) every entry gets, for the golden archives of other chunk sizes than a
   * writer chooses (GoldenArchives); never set otherwise.
   */
  public static final String GOLDEN_SHIFT_PROPERTY = "hpf.golden.chunkShift";

  private ChunkedEncoder() {}

  /** Whether writers store content of {@code rawLength} bytes in chunks. */
  public static boolean chunks(long rawLength) {
    return rawLength > MIN_RAW_BYTES;
  }

  /** The chunk size (log2) writers use for content of {@code rawLength} bytes. */
  public static int chunkShift(long rawLength) {
    Integer golden = Integer.getInteger(GOLDEN_SHIFT_PROPERTY);
    if (golden != null) {
      return golden;
    }
    int shift = DEFAULT_SHIFT;
    while (shift < FormatConstants.MAX_CHUNK_SHIFT && (rawLength >>> shift) >= MAX_CHUNKS_WANTED) {
      shift++;
    }
    return shift;
  }

  /** Bytes of the chunk table of content of {@code rawLength} bytes in chunks of 2^shift. */
  public static long tableLength(long rawLength, int shift) {
    return (((rawLength - 1) >>> shift) + 1) * FormatConstants.CHUNK_SLOT_BYTES;
  }

  /**
   * Content in chunks as stored: the chunks' stored bytes, {@code content[0, contentLength)} (the
   * raw array itself when the chunks are stored raw: it is not copied), then {@code table}.
   *
   * @param codec how the chunks are stored: the compressor's codec, or none if that did not shrink
   *     the content
   * @param contentCrc the CRC32C of all the raw content, for the entry's trailer
   */
  public record Encoded(
      Codec codec,
      int dictionaryId,
      int shift,
      byte[] content,
      int contentLength,
      byte[] table,
      int contentCrc) {
    /** The entry's stored length: the chunks and the table. */
    public int storedLength() {
      return contentLength + table.length;
    }

    /** The stored bytes in one array (a copy). */
    public byte[] stored() {
      byte[] out = java.util.Arrays.copyOf(content, storedLength());
      System.arraycopy(table, 0, out, contentLength, table.length);
      return out;
    }
  }

  /**
   * Compresses each chunk of {@code raw[0, length)} alone; stored raw if that does not shrink it.
   */
  public static Encoded encode(ContentCompressor compressor, byte[] raw, int length) {
    return encode(compressor, raw, length, chunkShift(length));
  }

  /** As {@link #encode(ContentCompressor, byte[], int)}, in chunks of {@code 1 << shift}. */
  public static Encoded encode(ContentCompressor compressor, byte[] raw, int length, int shift) {
    int size = 1 << shift;
    int[] chunkCrcs = new int[(length - 1) / size + 1];
    for (int i = 0; i < chunkCrcs.length; i++) {
      chunkCrcs[i] = EntryCodec.crc32c(raw, i * size, Math.min(size, length - i * size));
    }
    CRC32C whole = new CRC32C();
    whole.update(raw, 0, length);
    int contentCrc = (int) whole.getValue();
    if (compressor.codec() != Codec.NONE) {
      ByteArrayOutputStream area = new ByteArrayOutputStream(length / 2);
      Table table = new Table(length, shift);
      for (int i = 0; i < chunkCrcs.length; i++) {
        byte[] piece = compressor.compressAlways(raw, i * size, Math.min(size, length - i * size));
        area.write(piece, 0, piece.length);
        table.add(area.size(), chunkCrcs[i]);
      }
      if (area.size() < length) {
        return new Encoded(
            compressor.codec(),
            compressor.dictionaryId(),
            shift,
            area.toByteArray(),
            area.size(),
            table.bytes(),
            contentCrc);
      }
    }
    Table table = new Table(length, shift);
    for (int i = 0; i < chunkCrcs.length; i++) {
      table.add(Math.min(length, (long) (i + 1) * size), chunkCrcs[i]);
    }
    return new Encoded(Codec.NONE, 0, shift, raw, length, table.bytes(), contentCrc);
  }

  /**
   * The chunk table of content being written: one slot per chunk, added in order. Holds 12 bytes a
   * chunk (at most 65,536 chunks for content up to 16 GiB, 12 MiB of table for 1 TiB).
   */
  public static final class Table {
    private final ByteWriter slots;
    private final int expected;
    private int added;

    public Table(long rawLength, int shift) {
      this.expected = (int) (((rawLength - 1) >>> shift) + 1);
      this.slots = new ByteWriter(expected * FormatConstants.CHUNK_SLOT_BYTES);
    }

    /**
     * The next chunk: where its stored bytes end in the chunk area, the CRC32C of its raw bytes.
     */
    public void add(long storedEnd, int rawCrc) {
      slots.u64(storedEnd).u32(rawCrc);
      added++;
    }

    /** The table, once every chunk was added. */
    public byte[] bytes() {
      if (added != expected) {
        throw new IllegalStateException(added + " chunks added of " + expected);
      }
      return slots.toByteArray();
    }
  }
}
