package io.hpf.store;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local file read through memory mappings (as Lucene's MMapDirectory does) once it has been read
 * often: a positional read of the mapped range is a copy from the page cache, with no system call.
 * Its first {@link #READS_BEFORE_MAPPING} reads are plain positional reads instead, because a
 * mapping costs about as much as a dozen of them (the mmap, the page faults of its first touches,
 * and an munmap that only the garbage collector makes), and a reader opened for one lookup (a
 * one-shot command, a task, a fresh reader per request) reads each file once or twice. Files are
 * mapped in chunks of 1 GiB (a Java mapping holds at most 2 GiB). Bytes past the length mapped (a
 * file that grew since) are read from the channel. Thread-safe: only absolute gets are used, and
 * the mapping is published once, whole.
 *
 * <p>Archive files are never modified once committed, which is what makes mapping them safe;
 * truncating a mapped file under a reader would make reads fail with an internal error.
 */
final class MappedReadableFile implements ReadableFile {
  /**
   * Plain reads before the file is mapped; measured in docs/BENCHMARKS.md "One-shot commands, cold
   * gets, shared readers".
   */
  static final int READS_BEFORE_MAPPING = 16;

  private static final int CHUNK_BITS = 30;
  private static final long CHUNK_BYTES = 1L << CHUNK_BITS;

  private final ReopeningChannel channel;
  private final AtomicInteger plainReads = new AtomicInteger();
  private volatile Mapping mapping;

  /** The chunks mapped and the length they cover. */
  private record Mapping(long length, MappedByteBuffer[] chunks) {}

  MappedReadableFile(Path path, FileChannel channel) {
    this.channel = new ReopeningChannel(path, channel);
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
    Mapping m = mapping;
    if (m == null) {
      if (plainReads.incrementAndGet() <= READS_BEFORE_MAPPING) {
        channel.readFully(position, buffer, offset, length);
        return;
      }
      m = map();
    }
    long at = position;
    int done = 0;
    try {
      while (done < length && at < m.length()) {
        int chunk = (int) (at >>> CHUNK_BITS);
        int within = (int) (at & (CHUNK_BYTES - 1));
        int n = (int) Math.min(length - done, m.chunks()[chunk].capacity() - within);
        m.chunks()[chunk].get(within, buffer, offset + done, n);
        done += n;
        at += n;
      }
    } catch (InternalError e) {
      // The JVM's answer to a mapped page that is gone (SIGBUS): the file was cut short under
      // this reader. An I/O error of this read, not the end of the process's thread.
      throw new IOException(
          channel.path() + ": cut short under this reader: no byte at offset " + at, e);
    }
    if (done < length) {
      // Bytes appended after the file was mapped.
      channel.readFully(at, buffer, offset + done, length - done);
    }
  }

  @Override
  public void streamFully(long position, byte[] buffer, int offset, int length) throws IOException {
    channel.readFully(position, buffer, offset, length); // the page cache, not this process's map
  }

  /** Maps the file as long as it is now; once, whichever thread gets here first. */
  private synchronized Mapping map() throws IOException {
    Mapping m = mapping;
    if (m != null) {
      return m;
    }
    long length = channel.size();
    int count = (int) ((length + CHUNK_BYTES - 1) >>> CHUNK_BITS);
    MappedByteBuffer[] chunks = new MappedByteBuffer[count];
    for (int i = 0; i < count; i++) {
      long start = (long) i << CHUNK_BITS;
      chunks[i] = channel.map(start, Math.min(CHUNK_BYTES, length - start));
    }
    m = new Mapping(length, chunks);
    mapping = m;
    return m;
  }

  @Override
  public void close() throws IOException {
    // The mappings are released by the garbage collector; closing the channel is enough.
    channel.close();
  }
}
