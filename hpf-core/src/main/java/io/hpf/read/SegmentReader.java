package io.hpf.read;

import io.hpf.catalog.CatalogReader;
import io.hpf.format.FileNames;
import io.hpf.index.BucketDescriptor;
import io.hpf.index.IndexBucket;
import io.hpf.index.IndexRecord;
import io.hpf.index.SegmentDirectory;
import io.hpf.manifest.Manifest;
import io.hpf.store.FileUse;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One segment of an open archive. Bucket files and the catalog are opened on first use and kept
 * (their perfect hashes and block index in memory), so a warm lookup costs one record read.
 * Thread-safe: a race to load a bucket loads it twice and keeps one.
 */
public final class SegmentReader {
  private final Storage storage;
  private final Manifest.SegmentRef ref;
  private final AtomicReferenceArray<IndexBucket> buckets;
  private volatile CatalogReader catalog;

  /** Readers sharing this segment (a refreshed reader keeps its unchanged segments). */
  private final java.util.concurrent.atomic.AtomicInteger references =
      new java.util.concurrent.atomic.AtomicInteger(1);

  public SegmentReader(Storage storage, Manifest.SegmentRef ref) {
    this.storage = storage;
    this.ref = ref;
    this.buckets = new AtomicReferenceArray<>(ref.directory().buckets().size());
  }

  public Manifest.SegmentRef ref() {
    return ref;
  }

  /** The record for a name hash in this segment, or null if the segment does not have it. */
  public IndexRecord find(byte[] nameUtf8, long nameHash) throws IOException {
    int bucket = ref.directory().bucketFor(nameHash);
    return bucket < 0 ? null : bucket(bucket).find(nameUtf8, nameHash);
  }

  public IndexBucket bucket(int index) throws IOException {
    IndexBucket loaded = buckets.get(index);
    if (loaded == null) {
      BucketDescriptor d = ref.directory().buckets().get(index);
      String name = FileNames.bucketFileName(ref.segmentId(), d.bucketNo());
      ReadableFile file = storage.openRead(name, FileUse.INDEX);
      try {
        loaded = IndexBucket.load(storage.describe(name), file, d);
      } catch (IOException | RuntimeException e) {
        file.close();
        throw e;
      }
      if (!buckets.compareAndSet(index, null, loaded)) {
        file.close();
        loaded = buckets.get(index);
      }
    }
    return loaded;
  }

  public CatalogReader catalog() throws IOException {
    CatalogReader c = catalog;
    if (c == null) {
      synchronized (this) {
        if (catalog == null) {
          String name = FileNames.catalogFileName(ref.segmentId());
          ReadableFile file = storage.openRead(name, FileUse.INDEX);
          try {
            catalog =
                CatalogReader.open(
                    storage.describe(name),
                    file,
                    ref.catalogLength(),
                    ref.entryCount() + ref.tombstoneCount());
          } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
          }
        }
        c = catalog;
      }
    }
    return c;
  }

  public SegmentDirectory directory() {
    return ref.directory();
  }

  /** Bytes of index metadata held in memory (loaded perfect hashes). */
  public long memoryBytes() {
    long total = 0;
    for (int i = 0; i < buckets.length(); i++) {
      IndexBucket b = buckets.get(i);
      total += b == null ? 0 : b.memoryBytes();
    }
    return total;
  }

  /** One more reader shares this segment; each calls {@link #close} once. */
  public SegmentReader retain() {
    if (references.getAndIncrement() <= 0) {
      throw new IllegalStateException("segment " + ref.segmentId() + " is closed");
    }
    return this;
  }

  /** Closes the segment's files when the last reader sharing it closes. */
  public void close() {
    if (references.decrementAndGet() != 0) {
      return;
    }
    // Bucket and catalog files are closed with the storage's file handles by the reader; the
    // ReadableFile of each is owned here.
    for (int i = 0; i < buckets.length(); i++) {
      IndexBucket b = buckets.getAndSet(i, null);
      if (b != null) {
        b.closeQuietly();
      }
    }
    CatalogReader c = catalog;
    if (c != null) {
      c.closeQuietly();
    }
  }
}
