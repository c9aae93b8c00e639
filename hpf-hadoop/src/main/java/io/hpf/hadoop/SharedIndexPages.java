package io.hpf.hadoop;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pages of immutable index files (manifests and segment files) shared by every reader in this
 * process, as Hadoop's HarFileSystem keeps the indexes of HAR archives process-wide: a fresh reader
 * of an archive this process has read before (a task per split, a request, {@code hpf://} opened
 * again) finds its manifest, buckets and dictionary here and asks the NameNode and DataNodes only
 * for the part it reads.
 *
 * <p>A file is known by its HDFS inode id and length, which the NameNode never gives another file:
 * an archive made again at the same path has new ids, so nothing of the old one is served for it.
 * Archive index files are never changed once committed (FORMAT.md), which is what makes their pages
 * safe to keep. Least recently used pages go first once {@link #CAPACITY_BYTES} are held.
 * Thread-safe.
 */
final class SharedIndexPages {
  /** 64 MiB: the index pages of about two million entries. */
  static final long CAPACITY_BYTES = 64L << 20;

  /** A file: its file system (scheme and authority), HDFS inode id and length. */
  record FileKey(String fileSystem, long fileId, long length) {}

  private record PageKey(FileKey file, long pageNo) {}

  private static final Map<PageKey, byte[]> PAGES = new LinkedHashMap<>(1024, 0.75f, true);
  private static long bytesHeld;

  private SharedIndexPages() {}

  /** A page of a file, or null if this process holds none. */
  static synchronized byte[] get(FileKey file, long pageNo) {
    return PAGES.get(new PageKey(file, pageNo));
  }

  /** Keeps a page (read whole from the file) for every later reader of the same file. */
  static synchronized void put(FileKey file, long pageNo, byte[] page) {
    byte[] old = PAGES.put(new PageKey(file, pageNo), page);
    bytesHeld += page.length - (old == null ? 0 : old.length);
    var eldest = PAGES.entrySet().iterator();
    while (bytesHeld > CAPACITY_BYTES && eldest.hasNext()) {
      bytesHeld -= eldest.next().getValue().length;
      eldest.remove();
    }
  }

  /** Bytes of pages held now. */
  static synchronized long bytesHeld() {
    return bytesHeld;
  }
}
