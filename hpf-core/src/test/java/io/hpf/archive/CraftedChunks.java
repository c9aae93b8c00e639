package io.hpf.archive;

import com.github.luben.zstd.ZstdCompressCtx;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.internal.format.ChunkedEncoder;
import io.hpf.internal.format.EntryCodec;
import io.hpf.internal.format.FormatConstants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The crafted cases of the rules FORMAT.md "Chunked content" states of compressed chunks, for
 * {@link CraftedCorpus}: every chunk of an lz4 or zstd entry is compressed with the entry's codec
 * (a chunk stored raw in an lz4 entry is refused), a zstd chunk may carry zstd's content checksum
 * (read; a damaged one refused), and the last chunk ends where the chunk area ends (spare bytes
 * after it are refused: nothing in an entry goes unchecked).
 */
final class CraftedChunks {
  private static final int SHIFT = 16;
  private static final int CHUNK = 1 << SHIFT;

  private CraftedChunks() {}

  static void write(Path dir, List<CraftedCorpus.Case> cases) throws IOException {
    byte[] raw = new byte[17 * CHUNK + 100]; // 18 chunks, the last of 100 bytes
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) (i * 31 + i / 1000);
    }
    List<byte[]> lz4 = compressed(raw, CraftedChunks::lz4);
    add(dir, "chunk-lz4.hpf", raw, Codec.LZ4, lz4, 0);
    cases.add(new CraftedCorpus.Case("chunk-lz4.hpf", "ok"));
    int area = lz4.stream().mapToInt(c -> c.length).sum();
    add(dir, "chunk-spare-bytes.hpf", raw, Codec.LZ4, lz4, 3);
    cases.add(
        new CraftedCorpus.Case(
            "chunk-spare-bytes.hpf",
            "problem\tthe last chunk (17) ends at "
                + area
                + ", not at the end of the "
                + (area + 3)
                + " bytes of chunks"));
    List<byte[]> rawInLz4 = new ArrayList<>(lz4);
    rawInLz4.set(1, Arrays.copyOfRange(raw, CHUNK, 2 * CHUNK));
    add(dir, "chunk-raw-in-lz4.hpf", raw, Codec.LZ4, rawInLz4, 0);
    cases.add(
        new CraftedCorpus.Case("chunk-raw-in-lz4.hpf", "problem\tchunk 1 does not decompress"));
    // A row's stored length is the entry's S, table included (FORMAT.md "Catalog").
    int table = 12 * lz4.size();
    add(
        dir,
        "chunk-row-without-table.hpf",
        raw,
        Codec.LZ4,
        lz4,
        0,
        row ->
            new EntryInfo(
                row.name(),
                false,
                row.rawLength(),
                row.storedLength() - table,
                row.codec(),
                0,
                row.mtimeMillis(),
                row.mode(),
                row.attributes(),
                row.partId(),
                row.offset(),
                row.entryLength(),
                0,
                0));
    cases.add(
        new CraftedCorpus.Case(
            "chunk-row-without-table.hpf", "problem\tentry 'big' differs from its catalog row"));
    List<byte[]> checksummed = compressed(raw, CraftedChunks::zstdWithChecksum);
    add(dir, "chunk-zstd-checksum.hpf", raw, Codec.ZSTD, checksummed, 0);
    cases.add(new CraftedCorpus.Case("chunk-zstd-checksum.hpf", "ok"));
    List<byte[]> badChecksum = new ArrayList<>(checksummed);
    byte[] third = badChecksum.get(3).clone();
    third[third.length - 1] ^= 1; // the frame's last byte: its checksum, not its content
    badChecksum.set(3, third);
    add(dir, "chunk-zstd-checksum-damaged.hpf", raw, Codec.ZSTD, badChecksum, 0);
    cases.add(
        new CraftedCorpus.Case(
            "chunk-zstd-checksum-damaged.hpf", "problem\tchunk 3 does not decompress"));
  }

  /** Each chunk of {@code raw} compressed alone. */
  private static List<byte[]> compressed(byte[] raw, UnaryOperator<byte[]> compress) {
    List<byte[]> chunks = new ArrayList<>();
    for (int at = 0; at < raw.length; at += CHUNK) {
      chunks.add(compress.apply(Arrays.copyOfRange(raw, at, Math.min(raw.length, at + CHUNK))));
    }
    return chunks;
  }

  /** One LZ4 block, whether or not it is smaller (a writer would store a chunk that grows raw). */
  private static byte[] lz4(byte[] chunk) {
    return net.jpountz.lz4.LZ4Factory.fastestJavaInstance().fastCompressor().compress(chunk);
  }

  /** A zstd frame declaring its content size, with zstd's content checksum (writers add none). */
  private static byte[] zstdWithChecksum(byte[] chunk) {
    try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
      return zstd.setLevel(3).setChecksum(true).setContentSize(true).compress(chunk);
    }
  }

  /**
   * Adds entry {@code big} of {@code raw} stored as {@code chunks} back to back, {@code spare} zero
   * bytes after them, then the table of their ends and raw CRC32Cs.
   */
  private static void add(
      Path dir, String name, byte[] raw, Codec codec, List<byte[]> chunks, int spare)
      throws IOException {
    add(dir, name, raw, codec, chunks, spare, UnaryOperator.identity());
  }

  /** As above, its row changed by {@code row}. */
  private static void add(
      Path dir,
      String name,
      byte[] raw,
      Codec codec,
      List<byte[]> chunks,
      int spare,
      UnaryOperator<EntryInfo> row)
      throws IOException {
    ByteArrayOutputStream stored = new ByteArrayOutputStream();
    ChunkedEncoder.Table table = new ChunkedEncoder.Table(raw.length, SHIFT);
    for (int i = 0; i < chunks.size(); i++) {
      stored.write(chunks.get(i));
      int from = i * CHUNK;
      int length = Math.min(CHUNK, raw.length - from);
      table.add(stored.size(), EntryCodec.crc32c(raw, from, length));
    }
    stored.write(new byte[spare]);
    stored.write(table.bytes());
    new CraftedArchive(dir.resolve(name))
        .add(
            "big",
            codec,
            raw.length,
            stored.toByteArray(),
            EntryCodec.crc32c(raw, 0, raw.length),
            h -> {
              h[9] = FormatConstants.ENTRY_FLAG_CHUNKED;
              h[46] = SHIFT;
            })
        .patchLastRow(row)
        .commit();
  }
}
