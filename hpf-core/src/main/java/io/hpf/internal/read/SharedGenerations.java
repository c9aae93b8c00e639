package io.hpf.internal.read;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
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
 * <p>An open checks that the generation it would share is still current. Where asking after a file
 * is cheap (local disk, where a listing costs as much as reading a small file) it asks two
 * questions instead of listing: the manifest file is the one opened (the same file, not a re-made
 * archive's) and there is no manifest of the next generation (a commit's generation is its base's
 * plus one; FORMAT.md "Reading"). Elsewhere (HDFS) it lists, as any open does, and compares the
 * newest manifest's version from the listing; what it saves is every other open. Only storages that
 * name themselves with a {@link Storage#sharingKey()} take part; a storage that wraps another, such
 * as one that injects faults, does not.
 *
 * <p>At most {@link #CAPACITY} archives are kept, least recently opened first out; a generation
 * stays open while a reader of it is. Thread-safe.
 */
public final class SharedGenerations {
  /** Archives kept open: enough for a task's or a service's working set, few open files. */
  public static final int CAPACITY = 16;

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
  public static OpenGeneration open(Storage storage) throws IOException {
    String key = storage.sharingKey();
    if (key == null) {
      return openListed(storage, null);
    }
    Kept kept;
    synchronized (KEPT) {
      kept = KEPT.get(key);
    }
    OpenGeneration previous =
        kept == null || kept.generation().replaced() ? null : kept.generation().tryRetain();
    try {
      boolean questions = storage.statCheaperThanList();
      if (previous != null && questions && isCurrent(storage, kept)) {
        return handOver(previous);
      }
      List<StoredFile> files = storage.list();
      long newest = ManifestStore.requireNewest(storage, files);
      String name = FileNames.manifestFileName(newest);
      Object version = versionIn(storage, files, name);
      if (previous != null
          && newest == previous.manifest().generation()
          && kept.manifestVersion().equals(version)) {
        return handOver(previous); // listed: the same manifest is the newest
      }
      // The manifest is read from a file held open while kept: a local file system may give a
      // deleted file's inode to a new one, never while it is open. Its version is known before the
      // open, so a file made again meanwhile is seen as changed by the next open, never the
      // reverse.
      ReadableFile manifestFile = storage.openRead(name, FileUse.INDEX);
      OpenGeneration opened;
      try {
        opened = openFrom(storage, files, newest, manifestFile, previous);
      } catch (IOException | RuntimeException e) {
        manifestFile.close();
        throw e;
      }
      // Where asking is cheap, asked again: the file kept open is then the one of that version.
      if (version != null && (!questions || version.equals(storage.version(name)))) {
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

  /** Moves the caller's reference of {@code previous} to a new holder (see the finally above). */
  private static OpenGeneration handOver(OpenGeneration previous) {
    return previous.tryRetain();
  }

  /** A file's version from a listing, or asked of the storage where the listing does not tell. */
  private static Object versionIn(Storage storage, List<StoredFile> files, String name)
      throws IOException {
    for (StoredFile f : files) {
      if (f.name().equals(name) && f.version() != null) {
        return f.version();
      }
    }
    return storage.version(name);
  }

  /** Opens the newest generation without sharing with this process's other readers. */
  public static OpenGeneration openListed(Storage storage, OpenGeneration previous)
      throws IOException {
    return openListed(storage, storage.list(), previous);
  }

  /**
   * Opens the newest generation of a listing, sharing with {@code previous} (an open generation of
   * the archive, or null) what it may ({@link #follows}); nothing is kept for other readers.
   */
  public static OpenGeneration openListed(
      Storage storage, List<StoredFile> files, OpenGeneration previous) throws IOException {
    long newest = ManifestStore.requireNewest(storage, files);
    try (ReadableFile manifestFile =
        storage.openRead(FileNames.manifestFileName(newest), FileUse.INDEX)) {
      return openFrom(storage, files, newest, manifestFile, previous);
    }
  }

  /**
   * The generation of the manifest in {@code manifestFile}, checked against the listing (every file
   * it names there, of the right length), sharing with {@code previous} what it may.
   */
  private static OpenGeneration openFrom(
      Storage storage,
      List<StoredFile> files,
      long generation,
      ReadableFile manifestFile,
      OpenGeneration previous)
      throws IOException {
    Manifest manifest = ManifestStore.read(storage, generation, manifestFile);
    ArchiveFiles.checkPresent(storage, manifest, files);
    return new OpenGeneration(
        storage, manifest, files, follows(manifest, previous) ? previous : null);
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
  public static boolean follows(Manifest next, OpenGeneration previous) {
    return previous != null
        && next.generation() > previous.manifest().generation()
        && next.follows(previous.manifest());
  }

  private static void keep(String key, Kept kept) {
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
    letGo(replaced);
    letGo(evicted);
  }

  /**
   * Releases a generation no longer kept. A failure to close its read-only files (their file system
   * closed meanwhile, say) is not the failure of the open that let it go.
   */
  private static void letGo(Kept kept) {
    if (kept != null) {
      try {
        kept.release();
      } catch (IOException | RuntimeException e) {
        // Nothing was written through them; the file handles are gone with their file system.
      }
    }
  }

  /** Forgets every kept generation (their files close once no reader has them): for tests. */
  public static void clear() {
    List<Kept> all;
    synchronized (KEPT) {
      all = List.copyOf(KEPT.values());
      KEPT.clear();
    }
    for (Kept k : all) {
      letGo(k);
    }
  }
}
