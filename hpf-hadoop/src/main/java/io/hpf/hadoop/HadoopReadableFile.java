package io.hpf.hadoop;

import io.hpf.store.ReadableFile;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;

/**
 * Positional reads ({@code pread}) on one open stream, shared by every reader thread: the stream
 * holds the block locations, so a read asks the NameNode nothing.
 *
 * @param path the file, for messages
 * @param length the length when opened (HDFS's visible length for a file still being written)
 */
record HadoopReadableFile(String path, FSDataInputStream in, long length) implements ReadableFile {
  @Override
  public void readFully(long position, byte[] buffer, int offset, int count) throws IOException {
    if (position < 0 || position + count > length) {
      throw new EOFException(
          path
              + ": read of "
              + count
              + " bytes at offset "
              + position
              + " passes the end of the file ("
              + length
              + " bytes)");
    }
    try {
      in.readFully(position, buffer, offset, count);
    } catch (EOFException e) {
      throw new EOFException(
          path + ": file ended before " + count + " bytes at offset " + position);
    }
  }

  /** A read is a DataNode round trip (a request, a connection from the client's cache, a reply). */
  @Override
  public int coalesceBytes() {
    return 1 << 20;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
