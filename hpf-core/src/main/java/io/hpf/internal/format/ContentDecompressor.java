package io.hpf.internal.format;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.hpf.archive.model.Codec;
import java.util.Arrays;
import java.util.Map;
import java.util.WeakHashMap;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Decompresses entry content and catalog blocks. Thread-safe: zstd contexts are per thread
 * (creating one per call costs more than decompressing a small entry), one per dictionary.
 */
public final class ContentDecompressor {
  /** Made on first use: most archives are zstd, and LZ4's set-up costs a short command. */
  private static final class Lz4 {
    static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
  }

  private static final ThreadLocal<ZstdDecompressCtx> ZSTD_PLAIN =
      ThreadLocal.withInitial(ZstdDecompressCtx::new);
  private static final ThreadLocal<Map<Dictionary, ZstdDecompressCtx>> ZSTD_WITH_DICTIONARY =
      ThreadLocal.withInitial(WeakHashMap::new);

  private ContentDecompressor() {}

  /** Content stored raw is as long stored as raw; else an IllegalArgumentException saying so. */
  static void checkRaw(long storedLength, long rawLength) {
    if (storedLength != rawLength) {
      throw new IllegalArgumentException(
          "stored length " + storedLength + " differs from raw length " + rawLength);
    }
  }

  /**
   * FORMAT.md "Codecs": zstd content is one frame that declares its content size, the entry's raw
   * length; checked before anything is decoded.
   */
  static void checkOneZstdFrame(byte[] stored, int offset, int length, long rawLength) {
    long declared = com.github.luben.zstd.Zstd.getFrameContentSize(stored, offset, length);
    if (declared == -1) {
      throw new IllegalArgumentException(
          "zstd frame declares no content size (the header says " + rawLength + " bytes)");
    }
    if (declared != rawLength) {
      throw new IllegalArgumentException(
          declared < 0
              ? "zstd could not decompress: no zstd frame header"
              : "zstd frame declares " + declared + " bytes, the header " + rawLength);
    }
    long frame = com.github.luben.zstd.Zstd.findFrameCompressedSize(stored, offset, length);
    if (frame > 0 && frame < length) {
      throw new IllegalArgumentException(
          (length - frame) + " bytes after the zstd frame (one frame only)");
    }
  }

  /**
   * Decompresses {@code stored[offset, offset+length)} into exactly {@code rawLength} bytes.
   * Damaged input is reported as an {@link IllegalArgumentException} whose message the caller wraps
   * with the file and offset; it never yields a result of the wrong length.
   *
   * @param dictionary the dictionary the content names, or null
   */
  public static byte[] decompress(
      Codec codec, byte[] stored, int offset, int length, int rawLength, Dictionary dictionary) {
    if (codec == Codec.NONE) {
      checkRaw(length, rawLength);
      if (offset < 0 || length < 0 || length > stored.length - offset) {
        throw new IllegalArgumentException(
            length + " stored bytes at " + offset + " of a " + stored.length + "-byte entry");
      }
      // A copy straight after its allocation: the JIT then skips zeroing the new array, which cost
      // as much as the copy in a profile of warm gets of 20 KiB raw entries.
      return Arrays.copyOfRange(stored, offset, offset + length);
    }
    byte[] raw = new byte[rawLength];
    int produced;
    try {
      switch (codec) {
        case LZ4:
          produced = Lz4.DECOMPRESSOR.decompress(stored, offset, length, raw, 0, rawLength);
          break;
        case ZSTD:
          {
            checkOneZstdFrame(stored, offset, length, rawLength);
            ZstdDecompressCtx context =
                dictionary == null
                    ? ZSTD_PLAIN.get()
                    : ZSTD_WITH_DICTIONARY
                        .get()
                        .computeIfAbsent(
                            dictionary,
                            d -> {
                              ZstdDecompressCtx c = new ZstdDecompressCtx();
                              c.loadDict(d.forDecompression());
                              return c;
                            });
            long n = context.decompressByteArray(raw, 0, rawLength, stored, offset, length);
            produced = (int) n;
            break;
          }
        default:
          throw new IllegalArgumentException("unknown codec " + codec);
      }
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          codec.displayName() + " could not decompress: " + e.getMessage(), e);
    }
    if (produced != rawLength) {
      throw new IllegalArgumentException(
          codec.displayName() + " produced " + produced + " bytes, expected " + rawLength);
    }
    return raw;
  }
}
