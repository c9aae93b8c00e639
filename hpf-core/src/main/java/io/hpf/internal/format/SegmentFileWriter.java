package io.hpf.internal.format;

import io.hpf.store.AppendableFile;
import java.io.Closeable;
import java.io.IOException;
import java.util.zip.CRC32C;

/**
 * Writes one segment file (FORMAT.md "Segment file"): its header, then its sections one after the
 * other (the catalog, the buckets, any dictionaries), each written through {@link #section()}
 * exactly as the file of its kind would be, then the footer over the whole. One file instead of a
 * catalog, bucket files and dictionary files keeps a commit to few NameNode objects on HDFS. Not
 * thread-safe.
 */
public final class SegmentFileWriter implements Closeable {
  private final AppendableFile file;
  private final CRC32C crc = new CRC32C();

  /** Takes a new, empty file and writes the segment file's header. */
  public SegmentFileWriter(AppendableFile file) throws IOException {
    this.file = file;
    ByteWriter header = new ByteWriter(FormatConstants.FILE_HEADER_BYTES);
    FileFraming.writeHeader(header, FormatConstants.KIND_SEGMENT);
    write(header.array(), 0, header.size());
  }

  /** Where the next section starts. */
  public long position() {
    return file.position();
  }

  /**
   * A file for the next section: its positions count from the section's start, and its {@code sync}
   * only flushes (the segment file is made durable once, by {@link #finish}). Write one section at
   * a time; closing it does not close the segment file.
   */
  public AppendableFile section() {
    long start = file.position();
    return new AppendableFile() {
      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        SegmentFileWriter.this.write(buffer, offset, length);
      }

      @Override
      public long position() {
        return file.position() - start;
      }

      @Override
      public void flush() throws IOException {
        file.flush();
      }

      @Override
      public void sync() throws IOException {
        file.flush();
      }

      @Override
      public void close() {}
    };
  }

  /** Writes a whole section. */
  public void write(byte[] bytes, int offset, int length) throws IOException {
    crc.update(bytes, offset, length);
    file.write(bytes, offset, length);
  }

  /** Writes the footer, makes the file durable and returns its length. */
  public long finish() throws IOException {
    byte[] footer = FileFraming.footer((int) crc.getValue());
    file.write(footer, 0, footer.length);
    file.sync();
    return file.position();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
