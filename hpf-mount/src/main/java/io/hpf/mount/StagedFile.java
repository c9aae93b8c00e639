package io.hpf.mount;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The content of a file being written through a writable mount, until a commit holds it: in memory
 * while the mount's {@code --memory} allows, else in a file of the spill directory. Reads see every
 * write at once. A write that cannot be kept (the spill directory is full) fails, and marks the
 * file {@link #broken}: it is never committed. Thread-safe.
 */
final class StagedFile {
  /** The most a file written through the mount may hold: it is committed from one array. */
  static final long MAX_BYTES = 1L << 30;

  private final MemoryBudget budget;
  private final Path spillDirectory;
  private byte[] memory = new byte[0];
  private FileChannel spill;
  private Path spillPath;
  private long size;
  private IOException broken;
  private boolean discarded;

  StagedFile(MemoryBudget budget, Path spillDirectory) {
    this.budget = budget;
    this.spillDirectory = spillDirectory;
  }

  /** A file whose content starts as {@code content} (a committed file opened to change). */
  static StagedFile of(byte[] content, MemoryBudget budget, Path spillDirectory)
      throws IOException {
    StagedFile file = new StagedFile(budget, spillDirectory);
    file.write(0, ByteBuffer.wrap(content));
    return file;
  }

  synchronized long size() {
    return size;
  }

  /** Why a write failed, or null: a broken file is not committed. */
  synchronized IOException broken() {
    return broken;
  }

  /** Writes {@code data} at {@code offset}, the file growing (with zeros) as needed. */
  synchronized void write(long offset, ByteBuffer data) throws IOException {
    long end = offset + data.remaining();
    if (end > MAX_BYTES) {
      throw new FileTooLarge();
    }
    try {
      ensureCapacity(end);
      if (spillPath != null) {
        FileChannel channel = channel();
        for (long at = offset; data.hasRemaining(); ) {
          at += channel.write(data, at);
        }
      } else {
        data.get(memory, (int) offset, data.remaining());
      }
      size = Math.max(size, end);
    } catch (IOException e) {
      broken = e;
      throw e;
    }
  }

  /** The file grew past what a commit takes. */
  static final class FileTooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    FileTooLarge() {
      super("a file written through the mount holds at most 1 GiB");
    }
  }

  /** Cuts or extends (with zeros) the file to {@code length} bytes. */
  synchronized void truncate(long length) throws IOException {
    if (length > MAX_BYTES) {
      throw new FileTooLarge();
    }
    if (length > size) {
      write(length - 1, ByteBuffer.wrap(new byte[1])); // the bytes between read as zeros
      return;
    }
    if (spillPath != null) {
      channel().truncate(length);
    } else {
      java.util.Arrays.fill(memory, (int) length, (int) size, (byte) 0);
    }
    size = length;
  }

  /** Puts up to {@code length} bytes from {@code offset} into {@code into}; returns how many. */
  synchronized int read(long offset, int length, ByteBuffer into) throws IOException {
    int n = (int) Math.max(0, Math.min(length, size - offset));
    if (n == 0) {
      return 0;
    }
    if (spillPath == null) {
      into.put(memory, (int) offset, n);
      return n;
    }
    ByteBuffer part = into.slice().limit(n);
    FileChannel channel = channel();
    for (long at = offset; part.hasRemaining(); ) {
      int read = channel.read(part, at);
      if (read < 0) {
        throw new IOException("the spill file " + spillPath + " ended early");
      }
      at += read;
    }
    into.position(into.position() + n);
    return n;
  }

  /** The whole content, for a commit. */
  synchronized byte[] content() throws IOException {
    byte[] all = new byte[(int) size];
    read(0, all.length, ByteBuffer.wrap(all));
    return all;
  }

  /** Lets go of the content: memory given back, the spill file deleted. */
  synchronized void discard() {
    if (discarded) {
      return;
    }
    discarded = true;
    budget.give(memory.length);
    memory = new byte[0];
    closeSpill();
  }

  private void closeSpill() {
    idle();
    if (spillPath == null) {
      return;
    }
    try {
      Files.deleteIfExists(spillPath);
    } catch (IOException e) {
      // a spill file left behind is deleted with the spill directory when the mount ends
    }
    spillPath = null;
  }

  /**
   * Closes the spill file until it is used again: a file closed by its writers waits for its commit
   * without a descriptor (thousands may wait at once).
   */
  synchronized void idle() {
    if (spill == null) {
      return;
    }
    try {
      spill.close();
    } catch (IOException e) {
      // nothing was pending on it: writes are positional and done
    }
    spill = null;
  }

  /** The spill file, opened if idle. */
  private FileChannel channel() throws IOException {
    if (spill == null) {
      spill = FileChannel.open(spillPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return spill;
  }

  /** Room for {@code end} bytes: the array grown within the budget, else the content spilled. */
  private void ensureCapacity(long end) throws IOException {
    if (spillPath != null || end <= memory.length) {
      return;
    }
    long grown = Math.min(MAX_BYTES, Math.max(end, Math.max(4096, memory.length * 2L)));
    if (!discarded && budget.take(grown - memory.length)) {
      memory = java.util.Arrays.copyOf(memory, (int) grown);
      return;
    }
    Files.createDirectories(spillDirectory);
    spillPath = Files.createTempFile(spillDirectory, "staged-", "");
    spill = FileChannel.open(spillPath, StandardOpenOption.READ, StandardOpenOption.WRITE);
    ByteBuffer kept = ByteBuffer.wrap(memory, 0, (int) size);
    while (kept.hasRemaining()) {
      spill.write(kept, kept.position());
    }
    budget.give(memory.length);
    memory = new byte[0];
  }
}
