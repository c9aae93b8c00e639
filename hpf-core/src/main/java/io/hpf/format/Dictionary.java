package io.hpf.format;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;

/**
 * A zstd dictionary stored in the archive (FORMAT.md "Dictionary file"), trained on a sample of the
 * archive's own files. Entries compressed with it name its id. Thread-safe: the digested forms are
 * made once and only read afterwards.
 */
public final class Dictionary {
  /** zstd level used for entries; 3 is zstd's own default, a balance of speed and ratio. */
  public static final int ZSTD_LEVEL = 3;

  private final int id;
  private final byte[] bytes;
  private volatile ZstdDictCompress forCompression;
  private volatile ZstdDictDecompress forDecompression;

  public Dictionary(int id, byte[] bytes) {
    if (id <= 0) {
      throw new IllegalArgumentException("dictionary id must be positive: " + id);
    }
    this.id = id;
    this.bytes = bytes.clone();
  }

  public int id() {
    return id;
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public int sizeBytes() {
    return bytes.length;
  }

  ZstdDictCompress forCompression() {
    ZstdDictCompress d = forCompression;
    if (d == null) {
      synchronized (this) {
        if (forCompression == null) {
          forCompression = new ZstdDictCompress(bytes, ZSTD_LEVEL);
        }
        d = forCompression;
      }
    }
    return d;
  }

  ZstdDictDecompress forDecompression() {
    ZstdDictDecompress d = forDecompression;
    if (d == null) {
      synchronized (this) {
        if (forDecompression == null) {
          forDecompression = new ZstdDictDecompress(bytes);
        }
        d = forDecompression;
      }
    }
    return d;
  }
}
