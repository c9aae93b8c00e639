package io.hpf.hadoop;

import io.hpf.store.AppendableFile;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;

/**
 * A new file on a Hadoop file system: {@code hflush} makes bytes visible to readers, {@code hsync}
 * makes them durable on the DataNodes. On a store whose streams cannot (an object store: S3A, ABFS
 * upload at close, which is where their bytes become durable and visible), neither is called: S3A
 * would warn on every call that it is unsupported.
 *
 * <p>A store that writes an object only at close (S3A) refuses there a create over an object that
 * another writer made meanwhile (a conditional PUT): that failure, with the object now there, is
 * the "already exists" the core expects from an exclusive create.
 *
 * @param path the file, for messages
 * @param blockSize the file's block size, which writers align entries to
 * @param syncable whether the stream honours hflush and hsync
 * @param hdfs whether the stream is HDFS's, whose hsync also tells the NameNode the length (so that
 *     a listing of a file still being written gives it)
 * @param exists whether the file exists now, asked when closing it failed
 */
record HadoopAppendableFile(
    String path,
    FSDataOutputStream out,
    long blockSize,
    boolean syncable,
    boolean hdfs,
    Existence exists)
    implements AppendableFile {
  /** Asks the store whether the file is there. */
  interface Existence {
    boolean now() throws IOException;
  }

  static HadoopAppendableFile of(
      String path, FSDataOutputStream out, long blockSize, Existence exists) {
    boolean syncable =
        out.hasCapability(StreamCapabilities.HSYNC) && out.hasCapability(StreamCapabilities.HFLUSH);
    return new HadoopAppendableFile(
        path, out, blockSize, syncable, out instanceof HdfsDataOutputStream, exists);
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
    if (hdfs) {
      ((HdfsDataOutputStream) out).hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH));
    } else if (syncable) {
      out.hsync();
    }
  }

  @Override
  public boolean readableWhileOpen() {
    return hdfs;
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } catch (IOException e) {
      if (!syncable && exists.now()) {
        var taken = new java.nio.file.FileAlreadyExistsException(path);
        taken.initCause(e);
        throw taken;
      }
      throw e;
    }
  }
}
