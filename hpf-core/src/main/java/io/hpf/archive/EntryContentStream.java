package io.hpf.archive;

import io.hpf.format.ByteReader;
import io.hpf.format.Codec;
import io.hpf.format.CorruptArchiveException;
import io.hpf.format.Dictionary;
import io.hpf.format.EntryHeader;
import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Streams the content of a large, uncompressed entry with positional reads, computing its CRC32C on
 * the way; at the end a mismatch with the stored CRC is a {@link CorruptArchiveException}. A reader
 * of a damaged entry thus always learns of it, though only once it has consumed the content. Not
 * thread-safe.
 */
final class EntryContentStream extends InputStream {
  private final ReadableFile part;
  private final String file;
  private final long contentOffset;
  private final long length;
  private final String name;
  private final CRC32C crc = new CRC32C();
  private long position;
  private boolean checked;

  EntryContentStream(
      ReadableFile part, String file, long entryOffset, EntryHeader header, Dictionary dictionary)
      throws CorruptArchiveException {
    if (header.codec() != Codec.NONE || dictionary != null) {
      throw new CorruptArchiveException(
          file,
          entryOffset,
          "entry '"
              + header.name()
              + "' is over 16 MiB and compressed; hpf writes such entries uncompressed");
    }
    this.part = part;
    this.file = file;
    this.contentOffset = entryOffset + header.headerLength();
    this.length = header.rawLength();
    this.name = header.name();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int count) throws IOException {
    if (count == 0) {
      return 0;
    }
    if (position == length) {
      checkCrc();
      return -1;
    }
    int n = (int) Math.min(count, length - position);
    part.readFully(contentOffset + position, buffer, offset, n);
    crc.update(buffer, offset, n);
    position += n;
    return n;
  }

  private void checkCrc() throws IOException {
    if (checked) {
      return;
    }
    byte[] trailer = part.readFully(contentOffset + length, 4);
    int expected = ByteReader.getU32(trailer, 0);
    if ((int) crc.getValue() != expected) {
      throw new CorruptArchiveException(
          file,
          contentOffset,
          String.format(
              Locale.ROOT,
              "entry '%s': content checksum mismatch (CRC32C %08x, stored %08x)",
              name,
              (int) crc.getValue(),
              expected));
    }
    checked = true;
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
}
