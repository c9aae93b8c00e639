package io.hpf.internal.write;

import io.hpf.archive.EntryInfo;
import io.hpf.archive.EntryNotFoundException;
import io.hpf.archive.NameConflictException;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.manifest.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a commit of added entries and deleted names makes of the last commit: the new segment's rows
 * (tombstones among them, in name order), the live counts of the next manifest and the operation
 * recorded for people; or why it cannot be committed. It reads the last commit only through a
 * {@link Lookup}, so it is unit-tested without storage; the writer does the I/O.
 *
 * @param rows the segment's rows in name order; empty when there is nothing to commit
 * @param liveEntries entries a reader of the next generation sees
 * @param liveBytes bytes those entries take in part files
 * @param operation what the commit did, for {@code hpf log}
 */
public record CommitPlan(
    List<SegmentBuilder.Row> rows, long liveEntries, long liveBytes, String operation) {

  /** At most this many names are quoted in one error. */
  static final int MAX_NAMES_IN_ERRORS = 20;

  /** What a plan asks of the last commit. */
  public interface Lookup {
    /** The last commit's entry of a name, or null if it has none. */
    EntryInfo stat(String name) throws IOException;

    /** The last commit's entries whose names start with {@code prefix}, in byte order, lazily. */
    Iterator<EntryInfo> list(String prefix) throws IOException;

    /** The lookup of an archive that has no commit yet (or whose entries all go). */
    Lookup NONE =
        new Lookup() {
          @Override
          public EntryInfo stat(String name) {
            return null;
          }

          @Override
          public Iterator<EntryInfo> list(String prefix) {
            return java.util.Collections.emptyIterator();
          }
        };
  }

  /**
   * Plans a commit.
   *
   * @param archive names the archive in errors
   * @param base the last commit, or null for a new archive
   * @throws NameConflictException a name added twice
   * @throws NameConflictException an added name the last commit has, without {@code replace}
   * @throws EntryNotFoundException a deleted name the last commit does not have
   * @throws IllegalArgumentException a name both added and deleted
   * @throws NameConflictException an added name that would be a file and a directory at once
   */
  public static CommitPlan of(
      String archive,
      List<EntryInfo> added,
      Collection<String> deletes,
      Manifest base,
      Lookup lastCommit,
      boolean replace)
      throws IOException {
    List<SegmentBuilder.Row> rows = new ArrayList<>(added.size() + deletes.size());
    for (EntryInfo info : added) {
      rows.add(SegmentBuilder.Row.of(info));
    }
    SegmentBuilder.sortByName(rows);
    rejectDuplicates(rows);
    rejectClashes(archive, rows, deletes, lastCommit);
    long liveEntries = base == null ? 0 : base.liveEntries();
    long liveBytes = base == null ? 0 : base.liveEntryBytes();
    List<String> existing = new ArrayList<>();
    long existingCount = 0;
    for (SegmentBuilder.Row row : rows) {
      String name = row.info().name();
      if (deletes.contains(name)) {
        throw new IllegalArgumentException(
            archive + ": '" + name + "' is both added and deleted in one commit");
      }
      EntryInfo old = lastCommit.stat(name);
      liveBytes += row.info().accountedBytes();
      if (old == null) {
        liveEntries++;
      } else if (!replace) {
        existingCount++;
        if (existing.size() < MAX_NAMES_IN_ERRORS) {
          existing.add(old.name());
        }
      } else {
        liveBytes -= old.accountedBytes();
      }
    }
    if (existingCount > 0) {
      throw NameConflictException.exists(archive, existing, existingCount);
    }
    for (String name : deletes) {
      EntryInfo old = lastCommit.stat(name);
      if (old == null) {
        throw new EntryNotFoundException(archive, name);
      }
      liveEntries--;
      liveBytes -= old.accountedBytes();
      rows.add(SegmentBuilder.Row.of(EntryInfo.tombstone(name)));
    }
    if (!deletes.isEmpty()) {
      SegmentBuilder.sortByName(rows); // the added rows are sorted already; tombstones join them
    }
    String operation =
        base == null
            ? "create " + rows.size() + " entries"
            : describe(replace, added.size(), deletes.size());
    return new CommitPlan(rows, liveEntries, liveBytes, operation);
  }

  private static String describe(boolean replace, int added, int deleted) {
    String verb = replace ? "add --replace" : "add";
    if (deleted == 0) {
      return verb + " " + added + " entries";
    }
    return added == 0
        ? "rm " + deleted + " entries"
        : verb + " " + added + " entries, rm " + deleted;
  }

  /**
   * Refuses an added name that would be a file and a directory at once after the commit: one of its
   * parent directories is a file (added now, or in the last commit and not deleted now), or it is
   * the parent directory of a name added now or kept from the last commit. Costs an index lookup
   * per parent directory of each name; and a catalog seek per parent directory, plus one per added
   * name in a directory the last commit already has names in (a name in a new directory cannot have
   * names of the last commit under it).
   */
  private static void rejectClashes(
      String archive, List<SegmentBuilder.Row> added, Collection<String> deletes, Lookup last)
      throws IOException {
    Set<String> directoriesChecked = new HashSet<>(); // not entries, now or after the commit
    Map<String, Boolean> directoryInLastCommit = new HashMap<>();
    for (SegmentBuilder.Row row : added) {
      String name = row.info().name();
      for (int slash = name.lastIndexOf('/'); slash > 0; slash = name.lastIndexOf('/', slash - 1)) {
        String parent = name.substring(0, slash);
        if (!directoriesChecked.add(parent)) {
          break; // checked with its own parents for an earlier name
        }
        if (isAdded(added, parent) || (!deletes.contains(parent) && last.stat(parent) != null)) {
          throw NameConflictException.clash(archive, parent, name);
        }
      }
      String directory = name.substring(0, name.lastIndexOf('/') + 1); // "" at the top
      Boolean known = directoryInLastCommit.get(directory);
      if (known == null) {
        known = last.list(directory).hasNext();
        directoryInLastCommit.put(directory, known);
      }
      if (!known) {
        continue;
      }
      Iterator<EntryInfo> under = last.list(name + "/");
      while (under.hasNext()) {
        String kept = under.next().name();
        if (!deletes.contains(kept)) {
          throw NameConflictException.clash(archive, name, kept);
        }
      }
    }
  }

  /**
   * Whether {@code name} is among the rows added, which are sorted by name: a binary search, asked
   * once per directory, rather than a set of every name added (50 bytes a name, hashed each).
   */
  private static boolean isAdded(List<SegmentBuilder.Row> sorted, String name) {
    SegmentBuilder.Row key = new SegmentBuilder.Row(EntryNames.utf8(name), null);
    return java.util.Collections.binarySearch(sorted, key, SegmentBuilder.BY_NAME) >= 0;
  }

  private static void rejectDuplicates(List<SegmentBuilder.Row> sorted) {
    List<String> duplicates = new ArrayList<>();
    long total = 0;
    for (int i = 1; i < sorted.size(); i++) {
      if (Arrays.equals(sorted.get(i).nameUtf8(), sorted.get(i - 1).nameUtf8())
          && (i == 1 || !Arrays.equals(sorted.get(i).nameUtf8(), sorted.get(i - 2).nameUtf8()))) {
        total++;
        if (duplicates.size() < MAX_NAMES_IN_ERRORS) {
          duplicates.add(sorted.get(i).info().name());
        }
      }
    }
    if (total > 0) {
      throw NameConflictException.duplicate(duplicates, total);
    }
  }
}
