package io.hpf.internal.write;

import io.hpf.internal.format.ChunkedEncoder;
import io.hpf.internal.format.EntryCodec;
import io.hpf.store.AppendableFile;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32C;

/**
 * Streamed content copied raw into a part (FORMAT.md "Chunked content": content over the writer's
 * in-memory limit is stored raw in chunks), with what the copy computed on the way: the chunk table
 * (each chunk's end and CRC32C) and the CRC32C of all of it, for the entry's trailer.
 */
record RawCopy(ChunkedEncoder.Table table, int contentCrc) {

  /**
   * Copies {@code length} bytes from {@code in} to {@code file}, a chunk of 2^shift at a time.
   *
   * @param source what {@code in} reads, for messages
   * @throws EOFException if the stream ends early (the source shrank while being read)
   */
  static RawCopy copy(InputStream in, AppendableFile file, long length, int shift, String source)
      throws IOException {
    ChunkedEncoder.Table table = new ChunkedEncoder.Table(Math.max(1, length), shift);
    CRC32C whole = new CRC32C();
    byte[] buffer = new byte[1 << shift];
    long done = 0;
    while (done < length) {
      int n = (int) Math.min(buffer.length, length - done);
      int got = in.readNBytes(buffer, 0, n);
      if (got < n) {
        throw new EOFException(
            source
                + ": file ended after "
                + (done + got)
                + " bytes, expected "
                + length
                + " (did it change while being read?)");
      }
      whole.update(buffer, 0, n);
      file.write(buffer, 0, n);
      done += n;
      table.add(done, EntryCodec.crc32c(buffer, 0, n));
    }
    if (in.read() >= 0) {
      throw new IOException(
          source
              + ": file is longer than the "
              + length
              + " bytes it had when listed (did it change while being read?)");
    }
    return new RawCopy(table, (int) whole.getValue());
  }
}
