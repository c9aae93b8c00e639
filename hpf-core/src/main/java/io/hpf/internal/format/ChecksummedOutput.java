package io.hpf.internal.format;

import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * Streams a file through an {@link AppendableFile} while computing the CRC32C of every byte, so
 * that a large file (a bucket, a catalog) gets its footer without being held in memory. Not
 * thread-safe.
 */
public final class ChecksummedOutput {
  private final AppendableFile out;
  private final CRC32C crc = new CRC32C();

  public ChecksummedOutput(AppendableFile out) {
    this.out = out;
  }

  public void write(byte[] bytes, int offset, int length) throws IOException {
    crc.update(bytes, offset, length);
    out.write(bytes, offset, length);
  }

  public void write(ByteWriter section) throws IOException {
    write(section.array(), 0, section.size());
  }

  public long position() {
    return out.position();
  }

  /** Writes the footer (magic and CRC32C of everything before it). */
  public void writeFooter() throws IOException {
    byte[] footer = FileFraming.footer((int) crc.getValue());
    out.write(footer, 0, footer.length);
  }
}
