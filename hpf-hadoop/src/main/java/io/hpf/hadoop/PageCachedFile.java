package io.hpf.hadoop;

import io.hpf.store.ReadableFile;
import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps the pages of a small, immutable file in memory once read (HBase's block cache, for index
 * files). On HDFS every read is a DataNode round trip; a warm lookup reads one 32-byte index record
 * and then the entry, so caching the index files' pages leaves the entry as the one read of a warm
 * get. A cold read costs one page (64 KiB, about the time of 32 bytes on HDFS). Memory is bounded
 * by a budget shared by every file of a storage: once it is spent, reads go straight through.
 * Thread-safe; two threads may fetch the same page once each.
 */
final class PageCachedFile implements ReadableFile {
  static final int PAGE_BYTES = 64 * 1024;

  private final ReadableFile file;
  private final long length;
  private final AtomicLong budget;
  private final ConcurrentHashMap<Long, byte[]> pages = new ConcurrentHashMap<>();

  PageCachedFile(ReadableFile file, AtomicLong budget) throws IOException {
    this.file = file;
    this.length = file.length();
    this.budget = budget;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int count) throws IOException {
    if (position < 0 || position + count > length) {
      file.readFully(position, buffer, offset, count); // throws, naming the file and offset
      return;
    }
    while (count > 0) {
      long pageNo = position / PAGE_BYTES;
      int inPage = (int) (position % PAGE_BYTES);
      int n = Math.min(count, PAGE_BYTES - inPage);
      byte[] page = page(pageNo);
      if (page == null) {
        file.readFully(position, buffer, offset, count); // over budget: read through
        return;
      }
      System.arraycopy(page, inPage, buffer, offset, n);
      position += n;
      offset += n;
      count -= n;
    }
  }

  private byte[] page(long pageNo) throws IOException {
    byte[] page = pages.get(pageNo);
    if (page != null) {
      return page;
    }
    long start = pageNo * PAGE_BYTES;
    int size = (int) Math.min(PAGE_BYTES, length - start);
    if (budget.addAndGet(-size) < 0) {
      budget.addAndGet(size);
      return null;
    }
    page = file.readFully(start, size);
    byte[] raced = pages.putIfAbsent(pageNo, page);
    if (raced != null) {
      budget.addAndGet(size);
      return raced;
    }
    return page;
  }

  @Override
  public void close() throws IOException {
    long held = 0;
    for (byte[] page : pages.values()) {
      held += page.length;
    }
    pages.clear();
    budget.addAndGet(held);
    file.close();
  }
}
