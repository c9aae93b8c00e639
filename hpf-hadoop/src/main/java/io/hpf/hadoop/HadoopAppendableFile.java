package io.hpf.hadoop;

import io.hpf.store.AppendableFile;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;

/**
 * A new file on a Hadoop file system: {@code hflush} makes bytes visible to readers, {@code hsync}
 * makes them durable on the DataNodes.
 *
 * @param path the file, for messages
 * @param blockSize the file's block size, which writers align entries to
 */
record HadoopAppendableFile(String path, FSDataOutputStream out, long blockSize)
    implements AppendableFile {
  @Override
  public void write(byte[] buffer, int offset, int length) throws IOException {
    out.write(buffer, offset, length);
  }

  @Override
  public long position() {
    return out.getPos();
  }

  @Override
  public void flush() throws IOException {
    out.hflush();
  }

  @Override
  public void sync() throws IOException {
    out.hsync();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
