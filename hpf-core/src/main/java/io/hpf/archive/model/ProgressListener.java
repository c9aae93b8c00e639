package io.hpf.archive.model;

/** Told of progress by long operations; called from worker threads, so must be thread-safe. */
@FunctionalInterface
public interface ProgressListener {
  ProgressListener NONE = (done, bytes, total, totalBytes) -> {};

  /**
   * @param itemsDone items (files, entries) finished so far
   * @param bytesDone their bytes
   * @param itemsTotal all items, or -1 if not known yet
   * @param bytesTotal all bytes, or -1
   */
  void progress(long itemsDone, long bytesDone, long itemsTotal, long bytesTotal);
}
