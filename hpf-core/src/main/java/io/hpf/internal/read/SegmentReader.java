package io.hpf.internal.read;

import io.hpf.internal.catalog.CatalogReader;
import io.hpf.internal.index.IndexBucket;
import io.hpf.internal.index.IndexRecord;
import io.hpf.internal.index.SegmentDirectory;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.Section;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One segment of an open archive. Buckets and the catalog are opened on first use and kept (their
 * perfect hashes and block index in memory), so a warm lookup costs one record read. A segment file
 * (version 4) is opened once and shared by its sections; the separate bucket and catalog files of
 * older versions are each opened on their own. Thread-safe: a race to load a bucket loads it twice
 * and keeps one.
 */
public final class SegmentReader {
  private final Storage storage;
  private final Manifest.SegmentRef ref;
  private final AtomicReferenceArray<IndexBucket> buckets;
  private volatile CatalogReader catalog;
  private ReadableFile segmentFile; // guarded by this

  /** Readers sharing this segment (a refreshed reader keeps its unchanged segments). */
  private final java.util.concurrent.atomic.AtomicInteger references =
      new java.util.concurrent.atomic.AtomicInteger(1);

  /** Opens a file of the segment: of the generation's listing, never another file of its name. */
  @FunctionalInterface
  public interface Opener {
    ReadableFile open(String name, FileUse use) throws IOException;
  }

  private final Opener opener;

  public SegmentReader(Storage storage, Manifest.SegmentRef ref) {
    this(storage, ref, storage::openRead);
  }

  public SegmentReader(Storage storage, Manifest.SegmentRef ref, Opener opener) {
    this.storage = storage;
    this.ref = ref;
    this.opener = opener;
    this.buckets = new AtomicReferenceArray<>(ref.directory().bucketCount());
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
      Section section = Section.bucket(ref, ref.directory().bucket(index));
      ReadableFile file = open(section);
      try {
        loaded = IndexBucket.load(section.describe(storage), file, ref.directory().bucket(index));
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
          Section section = Section.catalog(ref);
          ReadableFile file = open(section);
          try {
            catalog =
                CatalogReader.open(
                    section.describe(storage),
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

  /** A section's bytes: a slice of the shared segment file, or a file of its own. */
  private ReadableFile open(Section section) throws IOException {
    if (!ref.inSegmentFile()) {
      return section.slice(opener.open(section.fileName(), FileUse.INDEX), true);
    }
    synchronized (this) {
      if (segmentFile == null) {
        segmentFile = opener.open(section.fileName(), FileUse.INDEX);
      }
      return section.slice(segmentFile, false);
    }
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
    synchronized (this) {
      if (segmentFile != null) {
        try {
          segmentFile.close();
        } catch (IOException e) {
          // closing a file opened for reads loses nothing
        }
        segmentFile = null;
      }
    }
  }
}
