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
 *
 * <p>A file with a {@link SharedIndexPages.FileKey} also takes its pages from, and gives them to,
 * the process's {@link SharedIndexPages}, and is opened only when a page is missing there: a reader
 * that finds every page it needs asks the NameNode nothing for this file. Thread-safe; two threads
 * may fetch the same page once each.
 */
final class PageCachedFile implements ReadableFile {
  static final int PAGE_BYTES = 64 * 1024;

  /** Opens the file itself, when a page must be read from it. */
  @FunctionalInterface
  interface Opener {
    ReadableFile open() throws IOException;
  }

  private final Opener opener;
  private final long length;
  private final AtomicLong budget;
  private final SharedIndexPages.FileKey shared;
  private final ConcurrentHashMap<Long, byte[]> pages = new ConcurrentHashMap<>();
  private volatile ReadableFile file;
  private boolean closed;

  /** A file already open, its pages kept for this file alone. */
  PageCachedFile(ReadableFile file, AtomicLong budget) throws IOException {
    this(() -> file, file.length(), budget, null);
    this.file = file;
  }

  /**
   * A file opened on its first read that no page answers.
   *
   * @param length its length, as listed (an index file is complete once listed by a reader)
   * @param shared its identity in the process's shared pages, or null for none
   */
  PageCachedFile(Opener opener, long length, AtomicLong budget, SharedIndexPages.FileKey shared) {
    this.opener = opener;
    this.length = length;
    this.budget = budget;
    this.shared = shared;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int count) throws IOException {
    if (position < 0 || position + count > length) {
      file().readFully(position, buffer, offset, count); // throws, naming the file and offset
      return;
    }
    while (count > 0) {
      long pageNo = position / PAGE_BYTES;
      int inPage = (int) (position % PAGE_BYTES);
      int n = Math.min(count, PAGE_BYTES - inPage);
      byte[] page = page(pageNo);
      if (page == null) {
        file().readFully(position, buffer, offset, count); // over budget: read through
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
    page = shared == null ? null : SharedIndexPages.get(shared, pageNo);
    if (page == null && shared != null) {
      page = file().readFully(start, size);
      SharedIndexPages.put(shared, pageNo, page);
    }
    if (budget.addAndGet(-size) < 0) {
      budget.addAndGet(size);
      return page; // shared, or null: read through
    }
    if (page == null) {
      page = file().readFully(start, size);
    }
    byte[] raced = pages.putIfAbsent(pageNo, page);
    if (raced != null) {
      budget.addAndGet(size);
      return raced;
    }
    return page;
  }

  /** The file itself, opened now if it was not yet. */
  private ReadableFile file() throws IOException {
    ReadableFile f = file;
    if (f == null) {
      synchronized (this) {
        if (closed) {
          throw new IOException("read of a closed file");
        }
        if (file == null) {
          file = opener.open();
        }
        f = file;
      }
    }
    return f;
  }

  @Override
  public void close() throws IOException {
    long held = 0;
    for (byte[] page : pages.values()) {
      held += page.length;
    }
    pages.clear();
    budget.addAndGet(held);
    ReadableFile f;
    synchronized (this) {
      closed = true;
      f = file;
    }
    if (f != null) {
      f.close();
    }
  }
}
