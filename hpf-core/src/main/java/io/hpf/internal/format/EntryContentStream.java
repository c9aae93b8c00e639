package io.hpf.internal.format;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;

/**
 * Streams the content of a large entry in bounded memory: raw content straight from positional
 * reads, zstd content through a streaming decoder (with the entry's dictionary). It counts the
 * bytes and computes their CRC32C on the way; at the end, content that is not exactly the raw
 * length or whose CRC32C differs is a {@link CorruptArchiveException}, so a reader of a damaged
 * entry always learns of it, though only once it has consumed the content. Not thread-safe.
 */
final class EntryContentStream extends BulkInputStream {
  private final ReadableFile file;
  private final String path;
  private final EntryHeader header;
  private final long contentOffset;
  private final InputStream source;
  private final CRC32C crc = new CRC32C();
  private long produced;
  private boolean checked;

  EntryContentStream(ReadableFile file, String path, PartEntry entry, Dictionary dictionary)
      throws IOException {
    this.file = file;
    this.path = path;
    this.header = entry.header();
    this.contentOffset = entry.offset() + header.headerLength();
    InputStream stored = new RangeInputStream(file, contentOffset, header.storedLength());
    switch (header.codec()) {
      case NONE:
        source = stored;
        break;
      case ZSTD:
        {
          ZstdInputStreamNoFinalizer zstd = new ZstdInputStreamNoFinalizer(stored);
          if (dictionary != null) {
            zstd.setDict(dictionary.forDecompression());
          }
          source = zstd;
          break;
        }
      case LZ4:
      default:
        throw new IllegalArgumentException("an LZ4 block is decoded whole, not streamed");
    }
  }

  @Override
  public int read(byte[] buffer, int offset, int count) throws IOException {
    if (count == 0) {
      return 0;
    }
    int n;
    try {
      n = source.read(buffer, offset, count);
    } catch (CorruptArchiveException | java.io.EOFException e) {
      throw e; // damage already named, or the part file ended early (its message names it)
    } catch (IOException | RuntimeException e) {
      throw corrupt("content does not decompress: " + e.getMessage());
    }
    if (n < 0) {
      finish();
      return -1;
    }
    produced += n;
    if (produced > header.rawLength()) {
      throw corrupt("content decompresses to more than its raw length " + header.rawLength());
    }
    crc.update(buffer, offset, n);
    return n;
  }

  private void finish() throws IOException {
    if (checked) {
      return;
    }
    if (produced != header.rawLength()) {
      throw corrupt(
          "content decompresses to " + produced + " bytes, header says " + header.rawLength());
    }
    byte[] trailer = file.readFully(contentOffset + header.storedLength(), 4);
    ContentCheck.checkCrc(
        path,
        contentOffset,
        ContentCheck.label(header),
        (int) crc.getValue(),
        ByteReader.getU32(trailer, 0));
    checked = true;
  }

  private CorruptArchiveException corrupt(String problem) {
    return new CorruptArchiveException(
        path, contentOffset, ContentCheck.label(header) + ": " + problem);
  }

  @Override
  public long skip(long n) throws IOException {
    // Skipping would leave the checksum unchecked; read through instead.
    byte[] sink = new byte[8192];
    long skipped = 0;
    while (skipped < n) {
      int r = read(sink, 0, (int) Math.min(sink.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
