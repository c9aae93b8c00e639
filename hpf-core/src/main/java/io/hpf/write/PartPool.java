package io.hpf.write;

import io.hpf.archive.WriterOptions;
import io.hpf.format.ContentCompressor;
import io.hpf.format.Dictionary;
import io.hpf.format.FileNames;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives writer threads the part file they append to: one part at a time, shared by every thread
 * (each compresses on its own; see {@link PartWriter}), so a commit writes one part file per part
 * size rather than one per thread. A part that passes the size limit gets no new borrower and is
 * finished once its last borrower gives it back; a broken part likewise. Thread-safe.
 */
public final class PartPool {
  private final Storage storage;
  private final WriterOptions options;
  private final Dictionary dictionary;
  private final AtomicInteger nextPartId;
  private final List<PartWriter> all = new ArrayList<>(); // guarded by this
  private final Map<PartWriter, Integer> borrowers = new IdentityHashMap<>(); // guarded by this
  private PartWriter current; // guarded by this

  public PartPool(Storage storage, WriterOptions options, Dictionary dictionary, int firstPartId) {
    this.storage = storage;
    this.options = options;
    this.dictionary = dictionary;
    this.nextPartId = new AtomicInteger(firstPartId);
  }

  public synchronized PartWriter borrow() throws IOException {
    if (current == null || retired(current)) {
      int partId = nextPartId.getAndIncrement();
      current =
          new PartWriter(
              storage, partId, () -> new ContentCompressor(options.codec(), dictionary), options);
      all.add(current);
    }
    borrowers.merge(current, 1, Integer::sum);
    return current;
  }

  private boolean retired(PartWriter part) {
    return part.isBroken() || part.committedLength() >= options.maxPartBytes();
  }

  /**
   * A borrower is done with its part; a full part is finished when its last borrower is (a broken
   * one is left to the commit, which fails, or to an abort).
   */
  public void giveBack(PartWriter part) throws IOException {
    boolean finish;
    synchronized (this) {
      int left = borrowers.merge(part, -1, Integer::sum);
      if (left == 0) {
        borrowers.remove(part);
      }
      finish = left == 0 && !part.isBroken() && retired(part);
      if (finish && part == current) {
        current = null;
      }
    }
    if (finish) {
      part.finish();
    }
  }

  /** Finishes every part; deletes those that got no entry. Returns the others. */
  public synchronized List<PartWriter> finishAll() throws IOException {
    List<PartWriter> used = new ArrayList<>();
    for (PartWriter part : all) {
      part.finish();
      if (part.rows().isEmpty()) {
        storage.delete(part.fileName());
      } else {
        used.add(part);
      }
    }
    all.clear();
    borrowers.clear();
    current = null;
    return used;
  }

  /** Closes and deletes every part of this pool (nothing of them was committed). */
  public synchronized void abort() throws IOException {
    for (PartWriter part : all) {
      part.closeQuietly();
      storage.delete(FileNames.partFileName(part.partId()));
    }
    all.clear();
    borrowers.clear();
    current = null;
  }

  public synchronized long pendingEntries() {
    long n = 0;
    for (PartWriter part : all) {
      n += part.entryCount();
    }
    return n;
  }

  public int nextPartId() {
    return nextPartId.get();
  }
}
