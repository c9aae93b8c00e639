package io.hpf.store;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A local file read through memory mappings (as Lucene's MMapDirectory does): a positional read of
 * the mapped range is a copy from the page cache, with no system call. Files are mapped in chunks
 * of 1 GiB (a Java mapping holds at most 2 GiB). Bytes past the length mapped at open (a file that
 * grew since) are read from the channel. Thread-safe: only absolute gets are used.
 *
 * <p>Archive files are never modified once committed, which is what makes mapping them safe;
 * truncating a mapped file under a reader would make reads fail with an internal error.
 */
final class MappedReadableFile implements ReadableFile {
  private static final int CHUNK_BITS = 30;
  private static final long CHUNK_BYTES = 1L << CHUNK_BITS;

  private final Path path;
  private final FileChannel channel;
  private final long mappedLength;
  private final MappedByteBuffer[] chunks;

  MappedReadableFile(Path path, FileChannel channel) throws IOException {
    this.path = path;
    this.channel = channel;
    this.mappedLength = channel.size();
    int count = (int) ((mappedLength + CHUNK_BYTES - 1) >>> CHUNK_BITS);
    chunks = new MappedByteBuffer[count];
    for (int i = 0; i < count; i++) {
      long start = (long) i << CHUNK_BITS;
      chunks[i] =
          channel.map(
              FileChannel.MapMode.READ_ONLY, start, Math.min(CHUNK_BYTES, mappedLength - start));
    }
  }

  @Override
  public long length() throws IOException {
    return channel.size();
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    if (position < 0 || length < 0) {
      throw new IllegalArgumentException("negative position or length");
    }
    long at = position;
    int done = 0;
    while (done < length && at < mappedLength) {
      int chunk = (int) (at >>> CHUNK_BITS);
      int within = (int) (at & (CHUNK_BYTES - 1));
      int n = (int) Math.min(length - done, chunks[chunk].capacity() - within);
      chunks[chunk].get(within, buffer, offset + done, n);
      done += n;
      at += n;
    }
    if (done < length) {
      // Bytes appended after the file was mapped.
      LocalStorage.readFully(channel, path, at, buffer, offset + done, length - done);
    }
  }

  @Override
  public void close() throws IOException {
    // The mappings are released by the garbage collector; closing the channel is enough.
    channel.close();
  }
}
