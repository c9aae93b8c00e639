package io.hpf.format;

import com.github.luben.zstd.Zstd;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** Decompresses entry content and catalog blocks. Thread-safe (no shared mutable state). */
public final class ContentDecompressor {
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  private ContentDecompressor() {}

  /**
   * Decompresses {@code stored[offset, offset+length)} into exactly {@code rawLength} bytes.
   * Damaged input is reported as an {@link IllegalArgumentException} whose message the caller wraps
   * with the file and offset; it never yields a result of the wrong length.
   *
   * @param dictionary the dictionary the content names, or null
   */
  public static byte[] decompress(
      Codec codec, byte[] stored, int offset, int length, int rawLength, Dictionary dictionary) {
    byte[] raw = new byte[rawLength];
    int produced;
    try {
      switch (codec) {
        case NONE:
          if (length != rawLength) {
            throw new IllegalArgumentException(
                "stored length " + length + " differs from raw length " + rawLength);
          }
          System.arraycopy(stored, offset, raw, 0, length);
          return raw;
        case LZ4:
          produced = LZ4.decompress(stored, offset, length, raw, 0, rawLength);
          break;
        case ZSTD:
          {
            long n =
                dictionary == null
                    ? Zstd.decompressByteArray(raw, 0, rawLength, stored, offset, length)
                    : Zstd.decompressFastDict(
                        raw, 0, stored, offset, length, dictionary.forDecompression());
            if (Zstd.isError(n)) {
              throw new IllegalArgumentException("zstd: " + Zstd.getErrorName(n));
            }
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
