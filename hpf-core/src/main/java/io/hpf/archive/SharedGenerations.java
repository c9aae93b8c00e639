package io.hpf.archive;

import io.hpf.format.FileNames;
import io.hpf.manifest.ArchiveFiles;
import io.hpf.manifest.Manifest;
import io.hpf.manifest.ManifestStore;
import io.hpf.store.FileUse;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.StoredFile;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The process's open current generations, one per archive directory, so that a reader opened for
 * one get (a task, a request, a one-lookup tool) costs about what a kept reader costs, as plain
 * files cost an open: its files stay open and its index pages loaded between readers.
 *
 * <p>An open checks that the generation it would share is still current with two cheap questions to
 * the storage instead of a listing (on local disk a listing costs as much as reading a small file):
 * the manifest file is the one opened (same file, not a re-made archive's) and there is no manifest
 * of the next generation (a commit's generation is its base's plus one; FORMAT.md "Reading"). Only
 * storages that name themselves with a {@link Storage#sharingKey()} take part; a storage that wraps
 * another, such as one that injects faults, does not.
 *
 * <p>At most {@link #CAPACITY} archives are kept, least recently opened first out; a generation
 * stays open while a reader of it is. Thread-safe.
 */
final class SharedGenerations {
  /** Archives kept open: enough for a task's or a service's working set, few open files. */
  static final int CAPACITY = 16;

  private record Kept(OpenGeneration generation, Object manifestVersion, ReadableFile manifest) {
    void release() throws IOException {
      try {
        manifest.close();
      } finally {
        generation.release();
      }
    }
  }

  private static final Map<String, Kept> KEPT = new LinkedHashMap<>(16, 0.75f, true);

  private SharedGenerations() {}

  /**
   * The current generation of {@code storage}'s archive, shared with this process's other readers
   * where the storage allows; the caller releases it.
   */
  static OpenGeneration open(Storage storage) throws IOException {
    String key = storage.sharingKey();
    if (key == null) {
      return openListed(storage, null);
    }
    Kept kept;
    synchronized (KEPT) {
      kept = KEPT.get(key);
    }
    OpenGeneration previous = kept == null ? null : kept.generation().tryRetain();
    try {
      if (previous != null && isCurrent(storage, kept)) {
        OpenGeneration shared = previous;
        previous = null; // the caller's reference now
        return shared;
      }
      List<StoredFile> files = storage.list();
      long newest = ManifestStore.newestGeneration(files);
      if (newest < 0) {
        return openListed(storage, files, null); // says there is no archive
      }
      String name = FileNames.manifestFileName(newest);
      // The manifest is read from a file held open while kept: a file system may give a deleted
      // file's identity to a new one (an inode), never to one while it is open. Its version is
      // asked before and after the open, so the file kept is the one of that version.
      Object version = storage.version(name);
      ReadableFile manifestFile = storage.openRead(name, FileUse.ONCE);
      OpenGeneration opened;
      try {
        Manifest manifest = ManifestStore.read(storage, newest, manifestFile);
        ArchiveFiles.checkPresent(storage, manifest, files);
        opened =
            new OpenGeneration(storage, manifest, follows(manifest, previous) ? previous : null);
      } catch (IOException | RuntimeException e) {
        manifestFile.close();
        throw e;
      }
      if (version != null && version.equals(storage.version(name))) {
        keep(key, new Kept(opened.tryRetain(), version, manifestFile));
      } else {
        manifestFile.close();
      }
      return opened;
    } finally {
      if (previous != null) {
        previous.release();
      }
    }
  }

  /** Opens the newest generation without sharing with this process's other readers. */
  static OpenGeneration openListed(Storage storage, OpenGeneration previous) throws IOException {
    return openListed(storage, storage.list(), previous);
  }

  private static OpenGeneration openListed(
      Storage storage, List<StoredFile> files, OpenGeneration previous) throws IOException {
    Manifest manifest = ManifestStore.readNewest(storage, files);
    ArchiveFiles.checkPresent(storage, manifest, files);
    return new OpenGeneration(storage, manifest, previous);
  }

  /** Whether a kept generation is still the newest: its manifest unchanged, no next one. */
  private static boolean isCurrent(Storage storage, Kept kept) throws IOException {
    long generation = kept.generation().manifest().generation();
    Object version = storage.version(FileNames.manifestFileName(generation));
    return kept.manifestVersion().equals(version)
        && !storage.exists(FileNames.manifestFileName(generation + 1));
  }

  /**
   * Whether {@code next} is a later generation of the archive {@code previous} has open, so that
   * its unchanged files may be shared: its history holds the previous one's commit (an archive
   * deleted and made again at the same place starts a new history; the history keeps the last 100
   * commits, and a reader that far behind opens everything anew).
   */
  static boolean follows(Manifest next, OpenGeneration previous) {
    if (previous == null) {
      return false;
    }
    Manifest old = previous.manifest();
    if (next.generation() <= old.generation()) {
      return false;
    }
    for (Manifest.HistoryEntry h : next.history()) {
      if (h.generation() == old.generation()) {
        return h.commitMillis() == old.commitMillis();
      }
    }
    return false;
  }

  private static void keep(String key, Kept kept) throws IOException {
    Kept replaced;
    Kept evicted = null;
    synchronized (KEPT) {
      replaced = KEPT.put(key, kept);
      if (KEPT.size() > CAPACITY) {
        Iterator<Kept> oldest = KEPT.values().iterator();
        evicted = oldest.next();
        oldest.remove();
      }
    }
    try {
      if (replaced != null) {
        replaced.release();
      }
    } finally {
      if (evicted != null) {
        evicted.release();
      }
    }
  }

  /** Forgets every kept generation (their files close once no reader has them): for tests. */
  static void clear() throws IOException {
    List<Kept> all;
    synchronized (KEPT) {
      all = List.copyOf(KEPT.values());
      KEPT.clear();
    }
    for (Kept k : all) {
      k.release();
    }
  }
}
