package io.hpf.mount;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a writable mount shows above the archive's last commit: the changes not yet committed
 * ({@link Pending}, by name) and the directories no entry makes — made by {@code mkdir}, or left
 * empty when their last file went, as POSIX keeps them until {@code rmdir}. They live in memory: a
 * directory left empty is gone when the mount ends, as an archive holds no empty directory.
 *
 * <p>Not thread-safe: the writable file system holds its lock around every use.
 */
final class Overlay {
  /** What a name is: a file staged or committed, a directory, or nothing. */
  record Found(Pending.File staged, EntryInfo committed, boolean directory) {
    static final Found NONE = new Found(null, null, false);
    static final Found DIRECTORY = new Found(null, null, true);

    boolean exists() {
      return staged != null || committed != null || directory;
    }

    boolean file() {
      return staged != null || committed != null;
    }
  }

  /** A child of a directory in a listing. */
  record Child(String name, boolean directory) {}

  private final NavigableMap<String, Pending> changes = new TreeMap<>();
  private final TreeSet<String> directories = new TreeSet<>();
  private final java.util.function.Predicate<String> surelyNoEntriesUnder;

  /**
   * @param surelyNoEntriesUnder whether the archive surely has no entry under a name (a look in
   *     memory that spares a walk of the catalogs for most new names), false when unsure
   */
  Overlay(java.util.function.Predicate<String> surelyNoEntriesUnder) {
    this.surelyNoEntriesUnder = surelyNoEntriesUnder;
  }

  Pending at(String name) {
    return changes.get(name);
  }

  /** Shows {@code pending} at its name; returns what it replaces there, or null. */
  Pending show(Pending pending) {
    return changes.put(pending.name, pending);
  }

  /** Stops showing {@code pending} (if it is still what its name shows). */
  boolean drop(Pending pending) {
    return changes.remove(pending.name, pending);
  }

  /** What {@code name} is, the overlay over {@code committed}. */
  Found find(String name, ArchiveReader committed) throws IOException {
    if (name.isEmpty()) {
      return Found.DIRECTORY;
    }
    Pending p = changes.get(name);
    if (p instanceof Pending.File f) {
      return new Found(f, null, false);
    }
    if (directories.contains(name) || stagedUnder(name)) {
      return Found.DIRECTORY;
    }
    if (p == null) {
      EntryInfo row = committed.stat(name);
      if (row != null) {
        return new Found(null, row, false);
      }
    }
    return committedUnder(name, committed) ? Found.DIRECTORY : Found.NONE;
  }

  /** Whether directory {@code name} holds nothing. */
  boolean isEmpty(String name, ArchiveReader committed) throws IOException {
    return !stagedUnder(name) && !committedUnder(name, committed); // "" : the whole tree
  }

  /** Keeps directory {@code name} when what made it goes (a file deleted or moved away). */
  void keepDirectory(String name) {
    if (!name.isEmpty()) {
      directories.add(name);
    }
  }

  void makeDirectory(String name) {
    directories.add(name);
  }

  void removeDirectory(String name) {
    directories.remove(name);
  }

  /** The directories kept under {@code from} (and it) moved to under {@code to}. */
  void moveDirectories(String from, String to) {
    List<String> moved = new ArrayList<>();
    for (String d : directories.tailSet(from, true)) {
      if (!d.equals(from) && !d.startsWith(from + "/")) {
        break;
      }
      moved.add(d);
    }
    directories.removeAll(moved);
    for (String d : moved) {
      directories.add(to + d.substring(from.length()));
    }
    directories.add(to);
  }

  /** The files staged under directory {@code name}, for a rename of it. */
  List<Pending.File> stagedFilesUnder(String name) {
    List<Pending.File> files = new ArrayList<>();
    for (Pending p : under(changes, name).values()) {
      if (p instanceof Pending.File f) {
        files.add(f);
      }
    }
    return files;
  }

  /** The children of directory {@code name}, sorted, the overlay over {@code committed}. */
  List<Child> children(String name, ArchiveReader committed) throws IOException {
    String prefix = name.isEmpty() ? "" : name + "/";
    TreeMap<String, Boolean> all = new TreeMap<>();
    Iterator<ArchiveTree.Child> kept = ArchiveTree.children(committed, name);
    while (kept.hasNext()) {
      ArchiveTree.Child c = kept.next();
      String path = prefix + c.name();
      if (c.file() == null ? find(path, committed).directory() : changes.get(path) == null) {
        all.put(c.name(), c.file() == null);
      }
    }
    for (Pending p : under(changes, name).values()) {
      if (p instanceof Pending.File) {
        addFirstComponent(all, p.name.substring(prefix.length()));
      }
    }
    for (String d : under(directories, name)) {
      addFirstComponent(all, d.substring(prefix.length()));
    }
    List<Child> children = new ArrayList<>(all.size());
    all.forEach((n, directory) -> children.add(new Child(n, directory)));
    return children;
  }

  private static void addFirstComponent(TreeMap<String, Boolean> all, String rest) {
    int slash = rest.indexOf('/');
    if (slash < 0) {
      all.putIfAbsent(rest, false);
    } else {
      all.put(rest.substring(0, slash), true);
    }
  }

  private boolean stagedUnder(String name) {
    for (Pending p : under(changes, name).values()) {
      if (p instanceof Pending.File) {
        return true;
      }
    }
    return !under(directories, name).isEmpty();
  }

  /** Whether the last commit has a name under {@code name} that the overlay does not delete. */
  private boolean committedUnder(String name, ArchiveReader committed) throws IOException {
    if (!name.isEmpty() && surelyNoEntriesUnder.test(name)) {
      return false;
    }
    Iterator<EntryInfo> rows = committed.list(name.isEmpty() ? "" : name + "/");
    while (rows.hasNext()) {
      if (!(changes.get(rows.next().name()) instanceof Pending.Deleted)) {
        return true;
      }
    }
    return false;
  }

  private static <V> NavigableMap<String, V> under(NavigableMap<String, V> map, String name) {
    if (name.isEmpty()) {
      return map;
    }
    // Every name under "d/" sorts from "d/" to before "d0" ('0' follows '/').
    return map.subMap(name + "/", true, name + "0", false);
  }

  private static java.util.SortedSet<String> under(TreeSet<String> set, String name) {
    return name.isEmpty() ? set : set.subSet(name + "/", name + "0");
  }
}
