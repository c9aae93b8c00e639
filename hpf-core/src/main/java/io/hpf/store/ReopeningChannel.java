package io.hpf.store;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A local file's channel for positional reads that outlives an interrupt. Java closes a FileChannel
 * for every thread when one thread is interrupted during an I/O operation on it; an archive's files
 * are shared by its readers, across threads and (for the current generation) across the readers of
 * a whole process, where an engine cancels a task by interrupting its thread. The interrupted
 * thread gets its interrupt; the others reopen the file and go on. Closed by {@link #close()}, it
 * stays closed. Thread-safe.
 */
final class ReopeningChannel {
  private final Path path;
  private volatile FileChannel channel;
  private volatile boolean closed;

  ReopeningChannel(Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  Path path() {
    return path;
  }

  long size() throws IOException {
    return call(FileChannel::size);
  }

  MappedByteBuffer map(long start, long length) throws IOException {
    return call(c -> c.map(FileChannel.MapMode.READ_ONLY, start, length));
  }

  /** One call on the channel. */
  @FunctionalInterface
  private interface ChannelCall<T> {
    T on(FileChannel channel) throws IOException;
  }

  /** Makes the call, on a reopened channel if an interrupt elsewhere closed this one. */
  private <T> T call(ChannelCall<T> call) throws IOException {
    for (; ; ) {
      FileChannel c = channel;
      try {
        return call.on(c);
      } catch (ClosedChannelException e) {
        reopenAfter(c, e);
      }
    }
  }

  /**
   * Reads exactly {@code length} bytes at {@code position}; an early end of file is an {@link
   * EOFException} naming the file and the offsets.
   */
  void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    ByteBuffer target = ByteBuffer.wrap(buffer, offset, length);
    long at = position;
    while (target.hasRemaining()) {
      long from = at;
      int n = call(c -> c.read(target, from));
      if (n < 0) {
        throw new EOFException(
            path
                + ": file ends at offset "
                + at
                + ", expected "
                + length
                + " bytes from offset "
                + position);
      }
      at += n;
    }
  }

  /**
   * After {@code failed} found the channel closed: rethrows if this file was closed or the caller
   * was interrupted; otherwise makes sure a new channel replaces {@code failed}.
   */
  private void reopenAfter(FileChannel failed, ClosedChannelException e) throws IOException {
    if (closed) {
      throw e;
    }
    if (Thread.currentThread().isInterrupted()) {
      InterruptedIOException interrupted = new InterruptedIOException(path + ": read interrupted");
      interrupted.initCause(e);
      throw interrupted;
    }
    synchronized (this) {
      if (channel == failed && !closed) {
        channel = FileChannel.open(path, StandardOpenOption.READ);
      }
    }
  }

  synchronized void close() throws IOException {
    closed = true;
    channel.close();
  }
}
