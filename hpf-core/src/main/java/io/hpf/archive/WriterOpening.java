package io.hpf.archive;

import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.RecoveryResult;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.maintenance.CommittedIds;
import io.hpf.internal.maintenance.FileCleaner;
import io.hpf.internal.maintenance.Recovery;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.manifest.ManifestStore;
import io.hpf.internal.read.OpenGeneration;
import io.hpf.internal.write.ArchiveLock;
import io.hpf.internal.write.ImportMarker;
import io.hpf.internal.write.SortedRows;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Opening an existing archive for writing ({@link ArchiveWriter#open}): with the lock held, one
 * listing of the directory decides everything — the id marks, the files of a commit that never
 * completed (removed), an import that died before its commit (abandoned), and the complete,
 * checksummed entries a writer that died had added (recovered in one commit of their own, so the
 * new writer starts from a base that holds them). Files of older generations past the grace period
 * are cleaned when there is nothing to recover (a recovery's commit cleans them).
 */
final class WriterOpening {
  private WriterOpening() {}

  /** Opens, recovers and returns the writer; on failure releases the lock and throws. */
  static ArchiveWriter open(Storage storage, WriterOptions requested) throws IOException {
    ArchiveLock lock = ArchiveLock.acquire(storage, requested.breakLock());
    ArchiveWriter writer = null;
    WriterCommits commits = null;
    try {
      List<StoredFile> listing = storage.list();
      Manifest base = ManifestStore.readNewest(storage, listing);
      List<String> changes = new ArrayList<>();
      WriterOptions options = requested.resolve(base, base.bucketCapacity(), storage, changes);
      CommittedIds committed = CommittedIds.of(storage, listing, base);
      if (base.idMarks() == null) {
        base = base.withIdMarks(committed.marks(listing)); // the next manifest records them
      }
      int importedBefore = listing.size();
      listing = ImportMarker.abandon(storage, listing, committed.maxPartId());
      int abandoned = importedBefore - listing.size();
      Dictionary dictionary = newestDictionary(storage, base, options);
      int leftovers = FileCleaner.removeUncommitted(storage, listing, committed) + abandoned;
      commits = new WriterCommits(storage, options, dictionary, base, nextPartId(base, listing));
      commits.listed(listing);
      // The writer's own reader of the base serves the scan: the generation is opened once.
      Recovery.Scan scan = Recovery.scan(storage, listing, committed, commits.snapshot().access());
      RecoveryResult found =
          withDamagedParts(withLeftovers(scan.result(), leftovers), storage, base, listing);
      if (lock.tookOverFrom() != null) {
        found = found.withLockTakenFrom(lock.tookOverFrom());
      }
      writer = new ArchiveWriter(storage, options, changes, lock, commits, found);
      if (!scan.parts().isEmpty()) {
        commitRecovered(writer.commits(), scan.parts());
      } else {
        FileCleaner.clean(
            storage, listing, base, options.gracePeriodMillis(), System.currentTimeMillis());
      }
      return writer;
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        writer.close(); // closes its commits and the lock
      } else {
        try {
          if (commits != null) {
            commits.close();
          }
        } finally {
          lock.close();
        }
      }
      throw e;
    }
  }

  /** The archive's newest dictionary when new entries are zstd, else null. */
  private static Dictionary newestDictionary(Storage storage, Manifest base, WriterOptions options)
      throws IOException {
    if (base.dictionaries().isEmpty() || options.settings().codec() != Codec.ZSTD) {
      return null;
    }
    Manifest.DictionaryRef newest = base.dictionaries().get(base.dictionaries().size() - 1);
    return OpenGeneration.readDictionary(storage, newest);
  }

  /** The scan's result, telling also of the files of a commit that never completed. */
  private static RecoveryResult withLeftovers(RecoveryResult found, int leftovers) {
    if (leftovers == 0) {
      return found;
    }
    List<String> notes = new ArrayList<>(found.notes());
    notes.add(leftovers + " files of a commit that never completed removed");
    return new RecoveryResult(
        found.entriesRecovered(),
        found.entriesDropped(),
        found.bytesDropped(),
        found.filesRemoved() + leftovers,
        found.damagedParts(),
        notes,
        found.lockTakenFrom());
  }

  /**
   * The scan's result, telling also of committed parts that are missing or cut short: recovery
   * cannot bring back what they lost (only a copy of the file can), and says so with what to do.
   */
  private static RecoveryResult withDamagedParts(
      RecoveryResult found, Storage storage, Manifest base, List<StoredFile> listing)
      throws IOException {
    List<ArchiveFiles.Shortfall> damaged = ArchiveFiles.damagedParts(storage, base, listing);
    if (damaged.isEmpty()) {
      return found;
    }
    List<String> notes = new ArrayList<>(found.notes());
    for (ArchiveFiles.Shortfall d : damaged) {
      Long length = d.length();
      notes.add(
          d.file().name()
              + (length == null
                  ? " is missing"
                  : " is cut short at " + length + " of its " + d.file().length() + " bytes")
              + ": its entries "
              + (length == null ? "" : "past the cut ")
              + "are lost and recovery cannot bring them back (restore the file from a copy,"
              + " or remove the names verify lists with hpf rm)");
    }
    return new RecoveryResult(
        found.entriesRecovered(),
        found.entriesDropped(),
        found.bytesDropped(),
        found.filesRemoved(),
        found.damagedParts() + damaged.size(),
        notes,
        found.lockTakenFrom());
  }

  /** Above every part the manifest names and every part file present (uncommitted ones too). */
  static int nextPartId(Manifest base, List<StoredFile> listing) {
    int max = base == null ? 0 : base.partIdMark();
    for (StoredFile f : listing) {
      max = Math.max(max, Recovery.partIdOf(f.name()));
    }
    return max + 1;
  }

  /** Commits the recovered parts as one new segment after the base's. */
  private static void commitRecovered(WriterCommits commits, List<Recovery.RecoveredPart> recovered)
      throws IOException {
    Manifest base = commits.base();
    List<Generation.Part> parts = new ArrayList<>();
    List<List<EntryInfo>> partsRows = new ArrayList<>();
    for (Recovery.RecoveredPart part : recovered) {
      parts.add(new Generation.Part(part.partId(), part.committedLength()));
      partsRows.add(part.rows());
    }
    SortedRows rows = WriterCommits.sortedRows(partsRows);
    Manifest next =
        commits.commitSegment(
            rows,
            parts,
            base.liveEntries() + rows.size(),
            base.liveEntryBytes() + rows.accountedBytes(),
            "recover " + rows.size() + " entries",
            true,
            null);
    commits.advance(next);
  }
}
