package io.hpf.hadoop.fs;

import io.hpf.archive.ArchiveSnapshot;
import io.hpf.archive.model.EntryInfo;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * The content of one entry as a seekable, positioned-readable stream. A small entry (up to 1 MiB)
 * is read whole on the first read, checked against its CRC32C, and then served from memory. A large
 * one streams in bounded memory through the core's reader, which hands out only checked bytes:
 * chunked content (format version 7, any codec) is checked chunk by chunk, and a seek reads only
 * the chunks from its target on; content stored in one piece (older versions) is checked whole when
 * the stream opens. A seek forward skips in the open stream, a seek backward opens it again at the
 * target. The position moves only by bytes handed out: after a failed read the stream is let go and
 * the next read opens one at the position.
 */
final class EntryInputStream extends FSInputStream {

  private final ArchiveSnapshot snapshot;
  private final EntryInfo entry;
  private final FileSystem.Statistics statistics;
  private byte[] whole;
  private InputStream stream;
  private long streamPosition;
  private long position;
  private boolean closed;

  /** Takes over the caller's reference to {@code snapshot}: closing the stream gives it back. */
  EntryInputStream(ArchiveSnapshot snapshot, EntryInfo entry, FileSystem.Statistics statistics) {
    this.snapshot = snapshot;
    this.entry = entry;
    this.statistics = statistics;
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(offset, length, buffer.length);
    if (length == 0) {
      return 0;
    }
    if (position >= entry.rawLength()) {
      return -1;
    }
    int n;
    if (entry.isReadWhole()) {
      if (whole == null) {
        whole = snapshot.reader().get(entry); // at its place: no second lookup
      }
      n = (int) Math.min(length, whole.length - position);
      System.arraycopy(whole, (int) position, buffer, offset, n);
    } else {
      try {
        n = readStream(buffer, offset, length);
      } catch (IOException | RuntimeException e) {
        // Where a failed stream stands is unknown (a chunk may be consumed before the next one
        // failed): it is let go, and the next read opens one at this stream's position.
        dropStream();
        throw e;
      }
    }
    position += n;
    if (statistics != null) {
      statistics.incrementBytesRead(n);
    }
    return n;
  }

  /** Reads from the content stream at {@link #position}; the position is the caller's to move. */
  private int readStream(byte[] buffer, int offset, int length) throws IOException {
    positionStream();
    int n = stream.read(buffer, offset, length);
    if (n < 0) {
      throw new EOFException(
          "entry '" + entry.name() + "' ended at " + streamPosition + " of " + entry.rawLength());
    }
    if (streamPosition + n == entry.rawLength() && stream.read() >= 0) {
      // Reading on at the end is what makes the core check the content's CRC32C, so a reader
      // that stops at the length it was told still learns of damage.
      throw new EOFException(
          "entry '" + entry.name() + "' has more content than its " + entry.rawLength() + " bytes");
    }
    streamPosition += n;
    return n;
  }

  private void dropStream() {
    InputStream failed = stream;
    stream = null;
    if (failed != null) {
      try {
        failed.close();
      } catch (IOException ignored) {
        // read-only: nothing is lost
      }
    }
  }

  /** Brings the content stream to {@link #position}: reopened to go back, read through to go on. */
  private void positionStream() throws IOException {
    if (stream == null || streamPosition > position) {
      if (stream != null) {
        stream.close();
      }
      stream = snapshot.reader().openStream(entry, position);
      streamPosition = position;
    }
    while (streamPosition < position) {
      long skipped = stream.skip(position - streamPosition);
      if (skipped <= 0) {
        throw new EOFException(
            "entry '" + entry.name() + "' ended at " + streamPosition + " of " + entry.rawLength());
      }
      streamPosition += skipped;
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + target);
    }
    if (target > entry.rawLength()) {
      throw new EOFException(
          FSExceptionMessages.CANNOT_SEEK_PAST_EOF
              + ": "
              + target
              + " in entry '"
              + entry.name()
              + "' of "
              + entry.rawLength()
              + " bytes");
    }
    position = target;
  }

  @Override
  public synchronized long getPos() {
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return (int) Math.min(Integer.MAX_VALUE, entry.rawLength() - position);
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(
          FSExceptionMessages.STREAM_IS_CLOSED + ": entry '" + entry.name() + "'");
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    whole = null;
    try {
      if (stream != null) {
        stream.close();
      }
    } finally {
      snapshot.release();
    }
  }
}
