package io.hpf.internal.maintenance;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.List;

/**
 * The highest part and segment ids that any committed manifest names: the marks a manifest of
 * version 7 records (FORMAT.md "Manifest"), or, for an archive of an older version, the ids of the
 * current manifest and of every older one kept for its grace period. A file at or below them was
 * committed once, so it is never the work of a writer that died: after a reclaiming compaction (or
 * a delete of everything) the current manifest may name no part at all while the parts it dropped
 * wait out their grace period, and taking those for a dead writer's would bring deleted entries
 * back.
 *
 * <p>The cleaner deletes a superseded manifest only after the files only it names, so a committed
 * file never outlives every manifest that names it. Older manifests are read only when the listing
 * holds a file above the current manifest's ids, which is rare: an open costs nothing more
 * otherwise.
 */
public record CommittedIds(int maxPartId, int maxSegmentId, List<String> unreadable) {

  /** The ids of {@code current} and of every older manifest in {@code listing}. */
  public static CommittedIds of(Storage storage, List<StoredFile> listing, Manifest current) {
    int parts = current.partIdMark();
    int segments = current.segmentIdMark();
    // A manifest of version 7 records the marks; older ones are read only for older archives.
    if (current.idMarks() != null || !hasFileAbove(listing, parts, segments)) {
      return new CommittedIds(parts, segments, List.of());
    }
    List<String> unreadable = new java.util.ArrayList<>();
    for (StoredFile f : listing) {
      long generation = FileNames.manifestGeneration(f.name());
      if (generation < 0 || generation >= current.generation()) {
        continue;
      }
      try {
        Manifest old = ManifestStore.read(storage, generation);
        parts = Math.max(parts, old.maxPartId());
        segments = Math.max(segments, old.maxSegmentId());
      } catch (IOException e) {
        unreadable.add(storage.describe(f.name()));
      }
    }
    return new CommittedIds(parts, segments, List.copyOf(unreadable));
  }

  /**
   * Whether a part above {@link #maxPartId} may be taken for a dead writer's work: not when an
   * older manifest could not be read, since it may have named that part (the cleaner removes such a
   * part with the unreadable manifest once its grace period is over).
   */
  public boolean partsAboveAreUncommitted() {
    return unreadable.isEmpty();
  }

  /**
   * The marks a manifest written now records (FORMAT.md "Manifest"): these ids, or, when an older
   * manifest could not be read, every part file present too (it may have named any of them).
   */
  public Manifest.IdMarks marks(List<StoredFile> listing) {
    int parts = maxPartId;
    if (!partsAboveAreUncommitted()) {
      for (StoredFile f : listing) {
        parts = Math.max(parts, FileNames.partIdOf(f.name()));
      }
    }
    return new Manifest.IdMarks(parts, maxSegmentId);
  }

  private static boolean hasFileAbove(List<StoredFile> listing, int parts, int segments) {
    for (StoredFile f : listing) {
      if (FileNames.partIdOf(f.name()) > parts || FileNames.segmentIdOf(f.name()) > segments) {
        return true;
      }
    }
    return false;
  }
}
