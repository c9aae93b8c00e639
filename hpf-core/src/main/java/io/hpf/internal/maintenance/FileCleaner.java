package io.hpf.internal.maintenance;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.write.ArchiveLock;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Deletes files no reader can need any more. A manifest that was superseded less than the grace
 * period ago is kept, with every file it names, so a reader that opened it keeps reading; after
 * that it and its files (when no kept manifest names them) go. Leftovers of failed writes
 * (temporary manifests, indexes of commits that never happened) go at once. REQUIRES: the writer
 * lock, and no uncommitted files of the current writer in the directory.
 */
public final class FileCleaner {
  private FileCleaner() {}

  public static int clean(Storage storage, Manifest current, long graceMillis, long nowMillis)
      throws IOException {
    return clean(storage, storage.list(), current, graceMillis, nowMillis);
  }

  /** As above, with a listing the caller made (files it names may be gone since). */
  public static int clean(
      Storage storage, List<StoredFile> listing, Manifest current, long graceMillis, long nowMillis)
      throws IOException {
    List<Long> generations = new ArrayList<>();
    for (StoredFile f : listing) {
      long g = FileNames.manifestGeneration(f.name());
      if (g >= 0 && g < current.generation()) {
        generations.add(g);
      }
    }
    generations.sort(null);
    Set<String> keep = new HashSet<>(names(current));
    keep.add(FileNames.manifestFileName(current.generation()));
    keep.add(ArchiveLock.FILE_NAME);
    // Walk from the newest old generation down: each was superseded when its successor committed.
    long supersededAt = current.commitMillis();
    for (int i = generations.size() - 1; i >= 0; i--) {
      long g = generations.get(i);
      Manifest old;
      try {
        old = ManifestStore.read(storage, g);
      } catch (IOException e) {
        continue; // unreadable: nobody can be reading it
      }
      if (nowMillis - supersededAt < graceMillis) {
        keep.add(FileNames.manifestFileName(g));
        keep.addAll(names(old));
      }
      supersededAt = old.commitMillis();
    }
    List<String> doomed = new ArrayList<>();
    for (StoredFile f : listing) {
      if (!keep.contains(f.name()) && FileNames.isArchiveFile(f.name())) {
        doomed.add(f.name());
      }
    }
    // The files first, then the old manifests oldest first. A committed file must never outlive
    // every manifest naming it, or a writer would take it for a dead writer's work and recover
    // what was deleted (CommittedIds); and while a manifest is there, so is every newer one, which
    // a reader that knows a generation relies on (FORMAT.md "Reading").
    doomed.sort(
        Comparator.comparingLong(
                (String name) -> {
                  long g = FileNames.manifestGeneration(name);
                  return g < 0 ? -1 : g;
                })
            .thenComparing(Comparator.naturalOrder()));
    for (String name : doomed) {
      storage.delete(name);
    }
    return doomed.size();
  }

  /**
   * Deletes what a writer that died in the middle of a commit left: segment files with ids above
   * any segment a committed manifest names (ids only grow, so they were never committed) and
   * temporary manifests. Runs before a new writer writes anything, so its ids cannot collide with
   * them.
   */
  public static int removeUncommitted(
      Storage storage, List<StoredFile> listing, CommittedIds committed) throws IOException {
    int removed = 0;
    for (StoredFile f : listing) {
      String name = f.name();
      boolean tempManifest = FileNames.kindOf(name) == FileNames.Kind.MANIFEST_TEMP;
      if (tempManifest || FileNames.segmentIdOf(name) > committed.maxSegmentId()) {
        storage.delete(name);
        removed++;
      }
    }
    return removed;
  }

  private static List<String> names(Manifest m) {
    List<String> names = new ArrayList<>();
    for (ArchiveFiles.Expected e : ArchiveFiles.expected(m)) {
      names.add(e.name());
    }
    return names;
  }
}
