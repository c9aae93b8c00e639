package io.hpf.testing;

import io.hpf.internal.format.FileNames;
import io.hpf.store.AppendableFile;
import io.hpf.store.ForwardingStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A storage that counts what it is asked and, when armed, fails calls at random with an I/O error
 * naming the file, as a flaky disk or a DataNode that went away would (LevelDB's
 * fault_injection_test, Lucene's MockDirectoryWrapper). Every call is a chance: opens, reads,
 * creates, writes, syncs, renames, listings and deletes.
 */
public final class FaultyStorage extends ForwardingStorage {
  private final Storage inner;
  private final SplittableRandom random;
  private volatile double failureRate;
  private final AtomicInteger listings = new AtomicInteger();
  private final AtomicInteger opens = new AtomicInteger();
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicInteger partReads = new AtomicInteger();
  private final AtomicInteger faults = new AtomicInteger();
  private final AtomicInteger probes = new AtomicInteger();
  private final AtomicInteger openFiles = new AtomicInteger();
  private volatile String sharingKey;
  private final AtomicInteger partReadsBeforeFault = new AtomicInteger(-1);

  public FaultyStorage(Storage inner, long seed) {
    super(inner);
    this.inner = inner;
    this.random = new SplittableRandom(seed);
  }

  /**
   * Lets readers of this process share what they open through this storage, under {@code key} (a
   * key of the test's own: no other storage shares with it).
   */
  public FaultyStorage sharedAs(String key) {
    sharingKey = key;
    return this;
  }

  @Override
  public String sharingKey() {
    return sharingKey;
  }

  /** Questions of whether a file exists and which it is ({@code exists}, {@code version}). */
  public int probes() {
    return probes.get();
  }

  /** Files opened and not closed yet. */
  public int openFiles() {
    return openFiles.get();
  }

  @Override
  public boolean exists(String name) throws IOException {
    probes.incrementAndGet();
    maybeFail("exists", name);
    return inner.exists(name);
  }

  @Override
  public Object version(String name) throws IOException {
    probes.incrementAndGet();
    maybeFail("version", name);
    return inner.version(name);
  }

  /**
   * The part-file read after {@code reads} more of them fails, once (a transient fault: a DataNode
   * timeout, a flaky disk); -1 disarms.
   */
  public void failPartReadAfter(int reads) {
    partReadsBeforeFault.set(reads);
  }

  /** From now on each call fails with this probability (0 disarms). */
  public void failWithProbability(double rate) {
    failureRate = rate;
  }

  public int listings() {
    return listings.get();
  }

  public int opens() {
    return opens.get();
  }

  /** Positioned reads of opened files. */
  public int reads() {
    return reads.get();
  }

  /** Positioned reads of part files. */
  public int partReads() {
    return partReads.get();
  }

  public int faults() {
    return faults.get();
  }

  private void maybeFail(String operation, String name) throws IOException {
    double rate = failureRate;
    boolean fail;
    synchronized (random) {
      fail = rate > 0 && random.nextDouble() < rate;
    }
    if (fail) {
      faults.incrementAndGet();
      throw new IOException(inner.describe(name) + ": injected fault in " + operation);
    }
  }

  @Override
  public ReadableFile openRead(String name, FileUse use) throws IOException {
    opens.incrementAndGet();
    maybeFail("open", name);
    ReadableFile file = inner.openRead(name, use);
    openFiles.incrementAndGet();
    return new ReadableFile() {
      private boolean closed;

      @Override
      public long length() throws IOException {
        return file.length();
      }

      @Override
      public void readFully(long position, byte[] buffer, int offset, int length)
          throws IOException {
        reads.incrementAndGet();
        if (FileNames.isPartFileName(name)) {
          partReads.incrementAndGet();
          if (partReadsBeforeFault.getAndUpdate(n -> n >= 0 ? n - 1 : n) == 0) {
            faults.incrementAndGet();
            throw new IOException(inner.describe(name) + ": injected fault in read at " + position);
          }
        }
        maybeFail("read at " + position, name);
        file.readFully(position, buffer, offset, length);
      }

      @Override
      public void close() throws IOException {
        synchronized (this) {
          if (!closed) {
            closed = true;
            openFiles.decrementAndGet();
          }
        }
        file.close();
      }
    };
  }

  @Override
  public AppendableFile create(String name, FileUse use) throws IOException {
    maybeFail("create", name);
    AppendableFile file = inner.create(name, use);
    return new AppendableFile() {
      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        maybeFail("write", name);
        file.write(buffer, offset, length);
      }

      @Override
      public long blockSize() {
        return file.blockSize();
      }

      @Override
      public long position() {
        return file.position();
      }

      @Override
      public void flush() throws IOException {
        maybeFail("flush", name);
        file.flush();
      }

      @Override
      public void sync() throws IOException {
        maybeFail("sync", name);
        file.sync();
      }

      @Override
      public void close() throws IOException {
        file.close();
      }
    };
  }

  @Override
  public void rename(String from, String to) throws IOException {
    maybeFail("rename to " + to, from);
    inner.rename(from, to);
  }

  @Override
  public void moveIn(String subdirectory, String name, String to) throws IOException {
    maybeFail("move to " + to, subdirectory + "/" + name);
    inner.moveIn(subdirectory, name, to);
  }

  @Override
  public List<StoredFile> list() throws IOException {
    listings.incrementAndGet();
    maybeFail("listing", ".");
    return inner.list();
  }

  @Override
  public void delete(String name) throws IOException {
    maybeFail("delete", name);
    inner.delete(name);
  }
}
