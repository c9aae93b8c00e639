package io.hpf.internal.format;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import io.hpf.archive.model.CorruptArchiveException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A zstd dictionary stored in the archive (FORMAT.md "Dictionary file"), trained on a sample of the
 * archive's own files. Entries compressed with it name its id. Thread-safe: the digested forms are
 * made once and only read afterwards.
 */
public final class Dictionary {
  private final int id;
  private final byte[] bytes;

  /**
   * Digested per level (its tables depend on the level), each kept while the dictionary is: a
   * compressor refers to the digested form it loaded, so one is never replaced under it.
   */
  private final ConcurrentHashMap<Integer, ZstdDictCompress> forCompression =
      new ConcurrentHashMap<>();

  private volatile ZstdDictDecompress forDecompression;

  public Dictionary(int id, byte[] bytes) {
    if (id <= 0) {
      throw new IllegalArgumentException("dictionary id must be positive: " + id);
    }
    if (bytes.length > FormatConstants.MAX_DICTIONARY_BYTES) {
      throw new IllegalArgumentException("dictionary of " + bytes.length + " bytes, over 16 MiB");
    }
    this.id = id;
    this.bytes = bytes.clone();
  }

  /**
   * Reads and checks a dictionary file (FORMAT.md "Dictionary file") of the length the manifest
   * gives, which is bounded before anything is read. A dictionary this process already holds (same
   * id, same bytes) is returned as it is, with no copy made: readers of an archive are opened again
   * and again (a task per split, a one-shot read), and the dictionary is most of what a cold read
   * reads.
   */
  public static Dictionary readFile(
      String path, io.hpf.store.ReadableFile file, int id, long length) throws java.io.IOException {
    long overhead = FormatConstants.FILE_HEADER_BYTES + 8L + FormatConstants.FOOTER_BYTES;
    if (length < overhead || length > FormatConstants.MAX_DICTIONARY_BYTES + overhead) {
      throw new CorruptArchiveException(
          path, 0, "dictionary file of " + length + " bytes (at most 16 MiB of dictionary)");
    }
    byte[] bytes = file.readFully(0, (int) length);
    FileFraming.checkHeader(path, bytes, 0, bytes.length, FormatConstants.KIND_DICTIONARY);
    int crc = FileFraming.checkFooter(path, bytes, bytes.length);
    ByteReader in = new ByteReader(path, 16, bytes, 16, bytes.length - 24);
    int storedId = in.u32("dictionary id");
    int size = in.count("dictionary length");
    if (storedId != id || size != in.remaining()) {
      throw in.corrupt("dictionary " + storedId + " of " + size + " bytes, expected id " + id);
    }
    int from = FormatConstants.FILE_HEADER_BYTES + 8;
    // The footer's CRC32C covers the id, the length and every byte of the dictionary: a key that
    // costs nothing more to compute; the bytes are compared before a known dictionary is taken.
    long key = ((long) id << 32) ^ (crc & 0xFFFFFFFFL);
    synchronized (INTERNED) {
      Dictionary known = INTERNED.get(key);
      if (known != null
          && java.util.Arrays.equals(
              known.bytes, 0, known.bytes.length, bytes, from, from + size)) {
        return known;
      }
      Dictionary read = new Dictionary(id, java.util.Arrays.copyOfRange(bytes, from, from + size));
      INTERNED.put(key, read);
      return read;
    }
  }

  /** Dictionaries read recently in this process, so that a new reader reuses the digested form. */
  private static final int INTERNED_MAX = 32;

  /**
   * Keyed by id and the CRC32C of the dictionary's file bytes. Digesting a dictionary for zstd
   * costs more than a whole cold lookup; readers share the digested form, as they share the page
   * cache.
   */
  private static final java.util.LinkedHashMap<Long, Dictionary> INTERNED =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, Dictionary> eldest) {
          return size() > INTERNED_MAX;
        }
      };

  /** The whole dictionary file: header, id, length, bytes, footer. */
  public byte[] encodeFile() {
    ByteWriter out = new ByteWriter(bytes.length + 64);
    FileFraming.writeHeader(out, FormatConstants.KIND_DICTIONARY);
    out.u32(id).u32(bytes.length).bytes(bytes);
    FileFraming.writeFooter(out);
    return out.toByteArray();
  }

  /** Bytes of the dictionary file. */
  public long fileLength() {
    return FormatConstants.FILE_HEADER_BYTES + 8L + bytes.length + FormatConstants.FOOTER_BYTES;
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

  /** The dictionary digested for compressing at {@code level}: its tables depend on the level. */
  ZstdDictCompress forCompression(int level) {
    return forCompression.computeIfAbsent(level, l -> new ZstdDictCompress(bytes, l));
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
