package io.hpf.hadoop;

import io.hpf.store.AppendableFile;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;

/**
 * A new file on a Hadoop file system: {@code hflush} makes bytes visible to readers, {@code hsync}
 * makes them durable on the DataNodes. On a store whose streams cannot (an object store: S3A, ABFS
 * upload at close, which is where their bytes become durable and visible), neither is called: S3A
 * would warn on every call that it is unsupported.
 *
 * @param path the file, for messages
 * @param blockSize the file's block size, which writers align entries to
 * @param syncable whether the stream honours hflush and hsync
 */
record HadoopAppendableFile(String path, FSDataOutputStream out, long blockSize, boolean syncable)
    implements AppendableFile {
  static HadoopAppendableFile of(String path, FSDataOutputStream out, long blockSize) {
    boolean syncable =
        out.hasCapability(StreamCapabilities.HSYNC) && out.hasCapability(StreamCapabilities.HFLUSH);
    return new HadoopAppendableFile(path, out, blockSize, syncable);
  }

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
    if (syncable) {
      out.hflush();
    }
  }

  @Override
  public void sync() throws IOException {
    if (syncable) {
      out.hsync();
    }
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
