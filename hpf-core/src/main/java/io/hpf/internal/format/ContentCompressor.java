package io.hpf.internal.format;

import com.github.luben.zstd.ZstdCompressCtx;
import io.hpf.archive.model.Codec;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * Compresses entry content with one codec. Holds a reusable zstd context, so it is NOT thread-safe:
 * each writer thread owns one. Content that does not shrink is reported as such so that the caller
 * stores it raw.
 */
public final class ContentCompressor implements AutoCloseable {
  /** Made on first use: most archives are zstd, and LZ4's set-up costs a short command. */
  private static final class Lz4 {
    static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  }

  private final Codec codec;
  private final Dictionary dictionary;
  private final ZstdCompressCtx zstd;

  /**
   * @param dictionary a zstd dictionary, or null; only used with {@link Codec#ZSTD}
   * @param zstdLevel the zstd level; only used with {@link Codec#ZSTD}
   */
  public ContentCompressor(Codec codec, Dictionary dictionary, int zstdLevel) {
    this.codec = codec;
    this.dictionary = codec == Codec.ZSTD ? dictionary : null;
    if (codec == Codec.ZSTD) {
      zstd = new ZstdCompressCtx();
      zstd.setLevel(zstdLevel);
      // The entry trailer already has a CRC32C of the content; zstd's own would be redundant.
      zstd.setChecksum(false);
      if (this.dictionary != null) {
        zstd.loadDict(this.dictionary.forCompression(zstdLevel));
      }
    } else {
      zstd = null;
    }
  }

  public Codec codec() {
    return codec;
  }

  /** The dictionary id entries compressed here carry, 0 for none. */
  public int dictionaryId() {
    return dictionary == null ? 0 : dictionary.id();
  }

  /**
   * Compresses {@code raw[0, length)}.
   *
   * @return the compressed bytes, or null if the codec is NONE or the result is not smaller
   */
  public byte[] compress(byte[] raw, int length) {
    switch (codec) {
      case NONE:
        return null;
      case LZ4:
        {
          if (length > FormatConstants.MAX_LZ4_RAW_BYTES) {
            return null; // FORMAT.md "Limits": an LZ4 block is decoded whole, so stored raw
          }
          byte[] out = new byte[Lz4.COMPRESSOR.maxCompressedLength(length)];
          int n = Lz4.COMPRESSOR.compress(raw, 0, length, out, 0, out.length);
          return n < length ? Arrays.copyOf(out, n) : null;
        }
      case ZSTD:
        {
          byte[] out = new byte[(int) com.github.luben.zstd.Zstd.compressBound(length)];
          int n = zstd.compressByteArray(out, 0, out.length, raw, 0, length);
          return n < length ? Arrays.copyOf(out, n) : null;
        }
    }
    throw new AssertionError(codec);
  }

  /**
   * Compresses {@code raw[offset, offset + length)} (at most a chunk, FORMAT.md "Chunked content"),
   * whether or not that shrinks it: a chunk is stored with its entry's codec.
   */
  byte[] compressAlways(byte[] raw, int offset, int length) {
    switch (codec) {
      case LZ4:
        {
          byte[] out = new byte[Lz4.COMPRESSOR.maxCompressedLength(length)];
          int n = Lz4.COMPRESSOR.compress(raw, offset, length, out, 0, out.length);
          return Arrays.copyOf(out, n);
        }
      case ZSTD:
        {
          byte[] out = new byte[(int) com.github.luben.zstd.Zstd.compressBound(length)];
          int n = zstd.compressByteArray(out, 0, out.length, raw, offset, length);
          return Arrays.copyOf(out, n);
        }
      case NONE:
      default:
        throw new IllegalStateException("no codec to compress with");
    }
  }

  @Override
  public void close() {
    if (zstd != null) {
      zstd.close();
    }
  }
}
