package io.hpf.internal.maintenance;

import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.RecoveryResult;
import io.hpf.internal.format.DictionarySource;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.format.FormatConstants;
import io.hpf.internal.format.PartEntry;
import io.hpf.internal.format.PartScanner;
import io.hpf.internal.read.GenerationAccess;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import io.hpf.store.Storage.StoredFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds what a writer that died before committing left behind: part files with ids above any part a
 * committed manifest still present names ({@link CommittedIds}). Their entries are self-describing
 * and checksummed, so each is scanned from the start; every complete entry whose checksums hold is
 * kept, and the scan stops at the first incomplete or damaged one (what follows is never
 * half-read). Entries whose names the archive already has are dropped, so that nothing committed
 * ever changes. REQUIRES: the writer lock.
 */
public final class Recovery {
  /** Rows recovered from one part and the end of its last good entry. */
  public record RecoveredPart(int partId, List<EntryInfo> rows, long committedLength) {}

  /** What a scan found: the parts to commit and what to tell the user. */
  public record Scan(List<RecoveredPart> parts, RecoveryResult result) {}

  private Recovery() {}

  /**
   * Scans the parts of {@code listing} above every part a committed manifest names ({@code
   * committed}), keeping their good entries whose names {@code snapshot} (the current generation)
   * does not have; entries may name its dictionaries.
   */
  public static Scan scan(
      Storage storage, List<StoredFile> listing, CommittedIds committed, GenerationAccess snapshot)
      throws IOException {
    List<RecoveredPart> recovered = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    long kept = 0;
    long dropped = 0;
    long bytesDropped = 0;
    int removed = 0;
    Set<String> seen = new HashSet<>();
    List<StoredFile> orphans = orphans(listing, committed, notes);
    for (StoredFile orphan : orphans) {
      int partId = partIdOf(orphan.name());
      List<EntryInfo> rows = new ArrayList<>();
      long end;
      try (ReadableFile file = storage.openRead(orphan.name(), FileUse.ONCE)) {
        end =
            scanPart(storage.describe(orphan.name()), partId, file, rows, snapshot.dictionaries());
      }
      List<EntryInfo> keep = new ArrayList<>();
      for (EntryInfo row : rows) {
        if (!seen.add(row.name()) || snapshot.exists(row.name())) {
          dropped++;
        } else {
          keep.add(row);
        }
      }
      long tail = orphan.lengthBytes() - end;
      bytesDropped += tail;
      kept += keep.size();
      notes.add(
          storage.describe(orphan.name())
              + ": "
              + keep.size()
              + " entries recovered, "
              + (rows.size() - keep.size())
              + " dropped (name already committed), "
              + (tail > 0
                  ? tail + " bytes of incomplete tail from offset " + end + " discarded"
                  : "no tail"));
      if (keep.isEmpty()) {
        storage.delete(orphan.name());
        removed++;
      } else {
        recovered.add(new RecoveredPart(partId, keep, end));
      }
    }
    return new Scan(
        recovered, new RecoveryResult(kept, dropped, bytesDropped, removed, 0, notes, null));
  }

  /**
   * The part files above every committed part, in name order; none when an older manifest that
   * cannot be read may have named them (never risk bringing back entries that were deleted: they go
   * with it when its grace period is over), which {@code notes} then says.
   */
  private static List<StoredFile> orphans(
      List<StoredFile> listing, CommittedIds committed, List<String> notes) {
    List<StoredFile> orphans = new ArrayList<>();
    for (StoredFile f : listing) {
      if (partIdOf(f.name()) > committed.maxPartId()) {
        orphans.add(f);
      }
    }
    if (!orphans.isEmpty() && !committed.partsAboveAreUncommitted()) {
      notes.add(
          orphans.size()
              + " part files above the committed ones left alone: "
              + String.join(", ", committed.unreadable())
              + " cannot be read, and may name them");
      return List.of();
    }
    orphans.sort((a, b) -> a.name().compareTo(b.name()));
    return orphans;
  }

  public static int partIdOf(String fileName) {
    return FileNames.partIdOf(fileName);
  }

  /**
   * Adds the part's good entries to {@code rows}; returns the end of the last one. The walk stops
   * at the first entry that is incomplete or damaged: nothing after it is trusted.
   */
  private static long scanPart(
      String path,
      int partId,
      ReadableFile file,
      List<EntryInfo> rows,
      DictionarySource dictionaries)
      throws IOException {
    long length = file.length();
    if (length < FormatConstants.FILE_HEADER_BYTES) {
      return 0;
    }
    long end = FormatConstants.FILE_HEADER_BYTES;
    // The dictionaries an entry may name are the committed ones: a writer only uses those.
    PartScanner scanner = new PartScanner(file, path, end, length, length, dictionaries);
    while (true) {
      try {
        PartEntry entry = scanner.next();
        if (entry == null) {
          return end;
        }
        scanner.reader().check(entry);
        rows.add(entry.info(partId));
        end = entry.end();
      } catch (CorruptArchiveException | java.io.EOFException e) {
        return end; // cut short by the crash, or damaged: the tail from here is dropped
      }
    }
  }
}
