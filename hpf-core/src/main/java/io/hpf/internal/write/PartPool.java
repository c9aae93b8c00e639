package io.hpf.internal.write;

import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.ContentCompressor;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.FileNames;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives writer threads the part file they append to. Where files are costly ({@link
 * Storage#prefersFewFiles()}: on HDFS each is a NameNode object, and so is each block) one part at
 * a time is shared by every thread, each compressing on its own (see {@link PartWriter}), so a
 * commit writes one part file per part size. Elsewhere each thread gets a part of its own, so
 * appends never wait for one another (on local disk that is a tenth of the time of packing raw
 * files). A part that passes the size limit gets no new borrower and is finished once its last
 * borrower gives it back; a broken part likewise. Thread-safe.
 */
public final class PartPool {
  private final Storage storage;
  private final WriterOptions options;
  private final Dictionary dictionary;
  private final AtomicInteger nextPartId;
  private final List<PartWriter> all = new ArrayList<>(); // guarded by this
  private final Map<PartWriter, Integer> borrowers = new IdentityHashMap<>(); // guarded by this
  private final boolean shared;
  private PartWriter current; // the shared part; guarded by this
  private final Deque<PartWriter> idle = new ArrayDeque<>(); // unshared parts; guarded by this

  public PartPool(Storage storage, WriterOptions options, Dictionary dictionary, int firstPartId) {
    this.storage = storage;
    this.options = options;
    this.dictionary = dictionary;
    this.nextPartId = new AtomicInteger(firstPartId);
    this.shared = storage.prefersFewFiles();
  }

  public synchronized PartWriter borrow() throws IOException {
    PartWriter part;
    if (shared) {
      if (current == null || retired(current)) {
        current = newPart();
      }
      part = current;
    } else {
      part = idle.isEmpty() ? newPart() : idle.pollFirst();
    }
    borrowers.merge(part, 1, Integer::sum);
    return part;
  }

  private PartWriter newPart() throws IOException {
    PartWriter part =
        new PartWriter(
            storage,
            nextPartId.getAndIncrement(),
            () ->
                new ContentCompressor(
                    options.settings().codec(), dictionary, options.settings().zstdLevel()),
            options);
    all.add(part);
    return part;
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
      if (!shared && !retired(part)) {
        idle.addFirst(part);
      }
    }
    if (finish) {
      part.finish();
    }
  }

  /**
   * Finishes every part; deletes those that got no entry (unless a committed manifest names them).
   * Returns those with entries since their last checkpoint.
   */
  public synchronized List<PartWriter> finishAll() throws IOException {
    List<PartWriter> used = new ArrayList<>();
    for (PartWriter part : all) {
      part.finish();
      if (part.entryCount() > 0) {
        used.add(part);
      } else if (!part.committed()) {
        storage.delete(part.fileName());
      }
    }
    forgetAll();
    return used;
  }

  /**
   * The entries added since the last commit, made committable: parts that can stay open ({@link
   * PartWriter#checkpoint}) and are neither full nor broken stay in the pool for the next commit;
   * the others are finished (deleted when they got no entry). REQUIRES: no borrower. The caller
   * closes each checkpoint's rows and, once a manifest names them, calls {@link #committed}.
   */
  public synchronized List<PartWriter.Checkpoint> checkpointAll() throws IOException {
    List<PartWriter.Checkpoint> checkpoints = new ArrayList<>();
    try {
      for (PartWriter part : List.copyOf(all)) {
        if (part.readableWhileOpen() && !retired(part)) {
          if (part.entryCount() > 0) {
            checkpoints.add(part.checkpoint());
          }
          continue;
        }
        part.finish();
        all.remove(part);
        idle.remove(part);
        if (part == current) {
          current = null;
        }
        if (part.entryCount() > 0) {
          checkpoints.add(
              new PartWriter.Checkpoint(part.partId(), part.sortedRows(), part.committedLength()));
        } else if (!part.committed()) {
          storage.delete(part.fileName());
        }
      }
    } catch (IOException | RuntimeException e) {
      for (PartWriter.Checkpoint c : checkpoints) {
        c.rows().close();
      }
      throw e;
    }
    return checkpoints;
  }

  /** A manifest naming these checkpoints' parts is committed. */
  public synchronized void committed(List<PartWriter.Checkpoint> checkpoints) {
    for (PartWriter.Checkpoint c : checkpoints) {
      for (PartWriter part : all) {
        if (part.partId() == c.partId()) {
          part.markCommitted();
        }
      }
    }
  }

  /**
   * Closes every part of this pool, deleting those no committed manifest names (what they hold past
   * their committed length is a tail no reader looks at).
   */
  public synchronized void abort() throws IOException {
    for (PartWriter part : all) {
      part.closeQuietly();
      if (!part.committed()) {
        storage.delete(FileNames.partFileName(part.partId()));
      }
    }
    forgetAll();
  }

  private void forgetAll() {
    all.clear();
    borrowers.clear();
    idle.clear();
    current = null;
  }

  public synchronized long pendingEntries() {
    long n = 0;
    for (PartWriter part : all) {
      n += part.entryCount();
    }
    return n;
  }

  /** New parts get ids above {@code partId} (a commit named parts up to it). */
  public void skipIdsThrough(int partId) {
    nextPartId.accumulateAndGet(partId + 1, Math::max);
  }

  public int nextPartId() {
    return nextPartId.get();
  }
}
