package io.hpf.internal.write;

import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.NameConflictException;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.manifest.Manifest;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What a commit of added entries and deleted names makes of the last commit: the new segment's rows
 * (tombstones among them, in name order), the live counts of the next manifest and the operation
 * recorded for people; or why it cannot be committed. It reads the added rows once, in name order,
 * keeping only what the names it is at need (never a row or name per added entry), and the last
 * commit only through a {@link Lookup}, so it is unit-tested without storage; the writer does the
 * I/O.
 *
 * @param rows the segment's rows in name order; none when there is nothing to commit
 * @param liveEntries entries a reader of the next generation sees
 * @param liveBytes bytes those entries take in part files
 * @param operation what the commit did, for {@code hpf log}
 */
public record CommitPlan(SortedRows rows, long liveEntries, long liveBytes, String operation) {

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

  /** Plans a commit of rows held in a list (any order), as {@link #of(String, SortedRows, ...)}. */
  public static CommitPlan of(
      String archive,
      List<EntryInfo> added,
      Collection<String> deletes,
      Manifest base,
      Lookup lastCommit,
      boolean replace)
      throws IOException {
    List<SegmentBuilder.Row> rows = new ArrayList<>(added.size());
    for (EntryInfo info : added) {
      rows.add(SegmentBuilder.Row.of(info));
    }
    SegmentBuilder.sortByName(rows);
    return of(archive, SortedRows.of(rows), deletes, base, lastCommit, replace);
  }

  /**
   * The plan of a new archive's first commit without deletes, if it refuses nothing: every row a
   * new name ({@link PlanCheck} finds out whether it does).
   */
  public static CommitPlan forNewArchive(SortedRows added) {
    return new CommitPlan(
        added, added.size(), added.accountedBytes(), "create " + entries(added.size()));
  }

  /**
   * Plans a commit. The plan's rows are {@code added} with the deletes' tombstones merged in.
   *
   * @param archive names the archive in errors
   * @param base the last commit, or null for a new archive
   * @throws NameConflictException a name added twice
   * @throws NameConflictException an added name that would be a file and a directory at once
   * @throws IllegalArgumentException a name both added and deleted
   * @throws NameConflictException an added name the last commit has, without {@code replace}
   * @throws EntryNotFoundException a deleted name the last commit does not have
   */
  public static CommitPlan of(
      String archive,
      SortedRows added,
      Collection<String> deletes,
      Manifest base,
      Lookup lastCommit,
      boolean replace)
      throws IOException {
    return of(archive, added, deletes, base, lastCommit, replace, false);
  }

  /**
   * As above; with {@code clashesChecked} the caller has made sure already that no added name is a
   * directory or under an entry of the last commit or of the other added names (a group writer
   * checks each put as it comes, against the same last commit), and the plan does not look again.
   */
  public static CommitPlan of(
      String archive,
      SortedRows added,
      Collection<String> deletes,
      Manifest base,
      Lookup lastCommit,
      boolean replace,
      boolean clashesChecked)
      throws IOException {
    Pass pass = new Pass(archive, deletes, lastCommit, replace);
    pass.clashesChecked = clashesChecked;
    try (SortedRows.Cursor cursor = added.open()) {
      for (SegmentBuilder.Row row = cursor.next(); row != null; row = cursor.next()) {
        pass.visit(row);
      }
    }
    pass.refuseIfWrong();
    long liveEntries = (base == null ? 0 : base.liveEntries()) + pass.newNames;
    long liveBytes = (base == null ? 0 : base.liveEntryBytes()) + pass.bytesChange;
    List<SegmentBuilder.Row> tombstones = new ArrayList<>();
    for (String name : deletes) {
      EntryInfo old = lastCommit.stat(name);
      if (old == null) {
        throw new EntryNotFoundException(archive, name);
      }
      liveEntries--;
      liveBytes -= old.accountedBytes();
      tombstones.add(SegmentBuilder.Row.of(EntryInfo.tombstone(name)));
    }
    SegmentBuilder.sortByName(tombstones);
    SortedRows rows =
        tombstones.isEmpty() ? added : SortedRows.merge(List.of(added, SortedRows.of(tombstones)));
    String operation =
        base == null
            ? "create " + entries(rows.size())
            : describe(replace, added.size(), deletes.size());
    return new CommitPlan(rows, liveEntries, liveBytes, operation);
  }

  private static String describe(boolean replace, long added, int deleted) {
    String verb = replace ? "add --replace" : "add";
    if (deleted == 0) {
      return verb + " " + entries(added);
    }
    return added == 0 ? "rm " + entries(deleted) : verb + " " + entries(added) + ", rm " + deleted;
  }

  /** "1 entry", "2 entries": for people reading hpf log. */
  private static String entries(long n) {
    return n + (n == 1 ? " entry" : " entries");
  }

  /**
   * One pass over the added rows in name order. What it finds wrong is kept and refused at the end,
   * the graver first. Names under one directory are contiguous in name order, and a name comes
   * before the names under it: so the directories and names it must remember are those on the path
   * of the name it is at (stacks, popped as the pass leaves them), however many rows there are.
   */
  private static final class Pass {
    private final String archive;
    private final Collection<String> deletes;
    private final Lookup last;
    private final boolean replace;
    private byte[] previous;
    private byte[] lastDuplicate;
    private final List<String> duplicates = new ArrayList<>();
    private long duplicateCount;
    private NameConflictException clash;
    private String addedAndDeleted;
    private final List<String> existing = new ArrayList<>();
    private long existingCount;
    long newNames;
    long bytesChange;

    /** Added names before this one that are prefixes of it (candidates for its parents). */
    private final ArrayDeque<String> addedPrefixes = new ArrayDeque<>();

    /** Parents of this name checked already: neither added nor kept as entries. */
    private final ArrayDeque<String> checkedDirectories = new ArrayDeque<>();

    /** For directories on this name's path: whether the last commit has names in them. */
    private final ArrayDeque<Map.Entry<String, Boolean>> directoriesInLastCommit =
        new ArrayDeque<>();

    boolean clashesChecked;

    Pass(String archive, Collection<String> deletes, Lookup last, boolean replace) {
      this.archive = archive;
      this.deletes = deletes;
      this.last = last;
      this.replace = replace;
    }

    void visit(SegmentBuilder.Row row) throws IOException {
      String name = row.info().name();
      if (previous != null && Arrays.equals(previous, row.nameUtf8())) {
        if (previous == lastDuplicate) {
          return; // the same name a third time: counted once
        }
        lastDuplicate = previous;
        duplicateCount++;
        if (duplicates.size() < MAX_NAMES_IN_ERRORS) {
          duplicates.add(name);
        }
        return;
      }
      previous = row.nameUtf8();
      if (clash == null && !clashesChecked) {
        clash = clashOf(name);
      }
      if (addedAndDeleted == null && deletes.contains(name)) {
        addedAndDeleted = name;
      }
      EntryInfo old = last.stat(name);
      bytesChange += row.info().accountedBytes();
      if (old == null) {
        newNames++;
      } else if (!replace) {
        existingCount++;
        if (existing.size() < MAX_NAMES_IN_ERRORS) {
          existing.add(old.name());
        }
      } else {
        bytesChange -= old.accountedBytes();
      }
    }

    void refuseIfWrong() throws NameConflictException {
      if (duplicateCount > 0) {
        throw NameConflictException.duplicate(duplicates, duplicateCount);
      }
      if (clash != null) {
        throw clash;
      }
      if (addedAndDeleted != null) {
        throw new IllegalArgumentException(
            archive + ": '" + addedAndDeleted + "' is both added and deleted in one commit");
      }
      if (existingCount > 0) {
        throw NameConflictException.exists(archive, existing, existingCount);
      }
    }

    /**
     * Why an added name would be a file and a directory at once after the commit, or null: one of
     * its parent directories is a file (added now, or in the last commit and not deleted now), or
     * it is the parent directory of a name kept from the last commit. (A name added now under it
     * comes later: its own visit finds this one among its parents.) Costs an index lookup per
     * parent directory; and a catalog seek per directory, plus one per added name in a directory
     * the last commit already has names in (a name in a new directory cannot have names of the last
     * commit under it).
     */
    private NameConflictException clashOf(String name) throws IOException {
      while (!addedPrefixes.isEmpty() && !name.startsWith(addedPrefixes.peekLast())) {
        addedPrefixes.pollLast();
      }
      for (String added : addedPrefixes) {
        if (EntryNames.isUnder(name, added)) {
          return NameConflictException.clash(archive, added, name);
        }
      }
      addedPrefixes.addLast(name);
      while (!checkedDirectories.isEmpty()
          && !EntryNames.isUnder(name, checkedDirectories.peekLast())) {
        checkedDirectories.pollLast();
      }
      String checked = checkedDirectories.isEmpty() ? "" : checkedDirectories.peekLast();
      List<String> unchecked = new ArrayList<>();
      for (int slash = name.lastIndexOf('/');
          slash > checked.length();
          slash = name.lastIndexOf('/', slash - 1)) {
        unchecked.add(name.substring(0, slash));
      }
      for (int i = unchecked.size() - 1; i >= 0; i--) { // from the top down
        String parent = unchecked.get(i);
        if (!deletes.contains(parent) && last.stat(parent) != null) {
          return NameConflictException.clash(archive, parent, name);
        }
        checkedDirectories.addLast(parent);
      }
      if (!lastCommitHasNamesIn(name.substring(0, name.lastIndexOf('/') + 1))) {
        return null;
      }
      Iterator<EntryInfo> under = last.list(name + "/");
      while (under.hasNext()) {
        String kept = under.next().name();
        if (!deletes.contains(kept)) {
          return NameConflictException.clash(archive, name, kept);
        }
      }
      return null;
    }

    /** Whether the last commit has names in {@code directory} ("" for the top, else "d/"). */
    private boolean lastCommitHasNamesIn(String directory) throws IOException {
      while (!directoriesInLastCommit.isEmpty()
          && !directory.startsWith(directoriesInLastCommit.peekLast().getKey())) {
        directoriesInLastCommit.pollLast();
      }
      Map.Entry<String, Boolean> top = directoriesInLastCommit.peekLast();
      if (top != null && top.getKey().equals(directory)) {
        return top.getValue();
      }
      boolean known = last.list(directory).hasNext();
      directoriesInLastCommit.addLast(Map.entry(directory, known));
      return known;
    }
  }
}
