package io.hpf.write;

import io.hpf.archive.WriterOptions;
import io.hpf.format.ContentCompressor;
import io.hpf.format.Dictionary;
import io.hpf.format.FileNames;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lends part files to writer threads, one thread at a time each, so N threads fill N parts at once
 * with no lock around the appends. A part that passes the size limit is finished and a new one
 * opened on the next borrow. Thread-safe.
 */
public final class PartPool {
  private final Storage storage;
  private final WriterOptions options;
  private final Dictionary dictionary;
  private final AtomicInteger nextPartId;
  private final ConcurrentLinkedDeque<PartWriter> idle = new ConcurrentLinkedDeque<>();
  private final List<PartWriter> all = new ArrayList<>();

  public PartPool(Storage storage, WriterOptions options, Dictionary dictionary, int firstPartId) {
    this.storage = storage;
    this.options = options;
    this.dictionary = dictionary;
    this.nextPartId = new AtomicInteger(firstPartId);
  }

  public PartWriter borrow() throws IOException {
    PartWriter part = idle.pollFirst();
    if (part != null) {
      return part;
    }
    int partId = nextPartId.getAndIncrement();
    part =
        new PartWriter(
            storage, partId, new ContentCompressor(options.codec(), dictionary), options);
    synchronized (all) {
      all.add(part);
    }
    return part;
  }

  /** A full or broken part gets no more entries; the others go back to the pool. */
  public void giveBack(PartWriter part) throws IOException {
    if (part.isBroken()) {
      return;
    }
    if (part.committedLength() >= options.maxPartBytes()) {
      part.finish();
      return;
    }
    idle.addFirst(part);
  }

  /** Finishes every part; deletes those that got no entry. Returns the others. */
  public List<PartWriter> finishAll() throws IOException {
    List<PartWriter> used = new ArrayList<>();
    synchronized (all) {
      for (PartWriter part : all) {
        part.finish();
        if (part.rows().isEmpty()) {
          storage.delete(part.fileName());
        } else {
          used.add(part);
        }
      }
      all.clear();
      idle.clear();
    }
    return used;
  }

  /** Closes and deletes every part of this pool (nothing of them was committed). */
  public void abort() throws IOException {
    synchronized (all) {
      for (PartWriter part : all) {
        part.closeQuietly();
        storage.delete(FileNames.partFileName(part.partId()));
      }
      all.clear();
      idle.clear();
    }
  }

  public long pendingEntries() {
    synchronized (all) {
      long n = 0;
      for (PartWriter part : all) {
        n += part.entryCount();
      }
      return n;
    }
  }

  public int nextPartId() {
    return nextPartId.get();
  }
}
