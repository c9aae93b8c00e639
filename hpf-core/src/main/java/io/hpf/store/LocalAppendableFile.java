package io.hpf.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A new local file, written through a buffer. Its pages start going to disk while it is written:
 * every {@link #WRITEBACK_BYTES} a background thread asks the kernel to write what the file has so
 * far ({@code fdatasync}), so that {@link #sync()} at the commit waits for the last few MiB rather
 * than the whole file, as RocksDB's {@code bytes_per_sync} does. Packing the kernel tree with
 * {@code --codec none}, the commit's sync of 1.3 GB of parts took 0.37–0.39 s of a 1.65 s create,
 * and 0.01–0.06 s with this (docs/BENCHMARKS.md, "Codecs, groups and packing for size": writeback
 * while packing).
 */
final class LocalAppendableFile implements AppendableFile {
  private static final int BUFFER_BYTES = 1 << 16;

  /** How much is written between two background writebacks; 128 MiB overlapped less. */
  static final long WRITEBACK_BYTES = 32L << 20;

  /** One thread for every file of the process: writebacks queue, writers never wait for them. */
  private static final class Writeback {
    static final ExecutorService THREAD =
        Executors.newSingleThreadExecutor(
            task -> {
              Thread thread = new Thread(task, "hpf-writeback");
              thread.setDaemon(true);
              return thread;
            });
  }

  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
  private long position;
  private long writtenSinceWriteback;
  private final AtomicBoolean writebackQueued = new AtomicBoolean();

  /**
   * The first failure of a background writeback. Kept for {@link #sync()}: Linux reports a
   * writeback error once to each open file, so the final fdatasync on this channel would not see it
   * again.
   */
  private volatile IOException writebackFailure;

  private final java.nio.file.Path path; // names the file in errors: a full disk says which

  LocalAppendableFile(java.nio.file.Path path, FileChannel channel) {
    this.path = path;
    this.channel = channel;
  }

  /** An error of this file's: what the system said, with the file named. */
  private IOException named(IOException e) {
    return new IOException(path + ": " + e.getMessage(), e);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    if (length > buffer.remaining()) {
      flush();
      if (length >= BUFFER_BYTES) {
        writeFully(ByteBuffer.wrap(bytes, offset, length));
        position += length;
        return;
      }
    }
    buffer.put(bytes, offset, length);
    position += length;
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public void flush() throws IOException {
    buffer.flip();
    writeFully(buffer);
    buffer.clear();
  }

  private void writeFully(ByteBuffer source) throws IOException {
    writtenSinceWriteback += source.remaining();
    try {
      while (source.hasRemaining()) {
        channel.write(source);
      }
    } catch (IOException e) {
      throw named(e);
    }
    if (writtenSinceWriteback >= WRITEBACK_BYTES && writebackQueued.compareAndSet(false, true)) {
      writtenSinceWriteback = 0;
      Writeback.THREAD.execute(this::writeback);
    }
  }

  /** On the writeback thread: what the file has so far, to disk. */
  private void writeback() {
    try {
      if (channel.isOpen()) {
        channel.force(false);
      }
    } catch (IOException e) {
      if (channel.isOpen() && writebackFailure == null) {
        writebackFailure = e; // not a close racing with it: a real failure
      }
    } finally {
      writebackQueued.set(false);
    }
  }

  @Override
  public boolean readableWhileOpen() {
    return true;
  }

  @Override
  public void sync() throws IOException {
    flush();
    try {
      channel.force(false);
    } catch (IOException e) {
      throw named(e);
    }
    IOException failure = writebackFailure;
    if (failure != null) {
      throw new IOException(path + ": writing to disk failed: " + failure.getMessage(), failure);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      flush();
    } finally {
      channel.close();
    }
  }
}
