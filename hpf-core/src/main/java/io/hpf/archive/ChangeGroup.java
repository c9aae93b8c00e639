package io.hpf.archive;

import io.hpf.archive.GroupCommitWriter.Change;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.internal.format.EntryNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * The changes of one group of a {@link GroupCommitWriter}: their names, their futures, what they
 * weigh, and the rule of which changes may join it. Guarded by the writer's lock.
 */
final class ChangeGroup {
  final TreeSet<String> names = new TreeSet<>(); // sorted: the names under one
  final List<CompletableFuture<Generation>> waiting = new ArrayList<>();
  final CompletableFuture<Void> committed = new CompletableFuture<>();
  long bytes;
  int changes;
  long firstNanos;
  boolean full;

  boolean isEmpty() {
    return waiting.isEmpty();
  }

  /**
   * Whether {@code change} may not join: the group changes its name, or (for a put) a parent of it
   * or a name under it — put or deleted, it must be committed first.
   */
  boolean clashes(Change change) {
    String name = change.name();
    if (names.contains(name)) {
      return true;
    }
    if (!change.isPut()) {
      return false;
    }
    for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
      if (names.contains(name.substring(0, slash))) {
        return true;
      }
    }
    String under = name + "/";
    String first = names.ceiling(under);
    return first != null && first.startsWith(under);
  }

  /** Adds {@code changes}, answered by {@code done}; full once it holds what {@code s} allows. */
  void join(List<Change> added, CompletableFuture<Generation> done, GroupCommitWriter.Settings s) {
    if (isEmpty()) {
      firstNanos = System.nanoTime();
    }
    for (Change c : added) {
      names.add(c.name());
      if (c.isPut()) {
        bytes += c.content().length;
      }
    }
    changes += added.size();
    waiting.add(done);
    full |= changes >= s.maxEntries() || bytes >= s.maxBytes();
  }

  /** Takes back changes the writer refused to append, and their future. */
  void leave(List<Change> refused, CompletableFuture<Generation> done) {
    waiting.remove(done);
    for (Change c : refused) {
      names.remove(c.name());
    }
  }

  /**
   * The changes with their names normalized, the deleted ones into {@code deleting}; refuses a name
   * given twice and a put under another put.
   */
  static List<Change> normalized(List<Change> asked, Set<String> deleting, String archive)
      throws NameConflictException {
    List<Change> changes = new ArrayList<>(asked.size());
    TreeSet<String> puts = new TreeSet<>();
    Set<String> names = new HashSet<>();
    for (Change c : asked) {
      String name = EntryNames.normalize(c.name());
      if (!names.add(name)) {
        throw NameConflictException.duplicate(List.of(name), 1);
      }
      changes.add(new Change(name, c.content(), c.meta()));
      if (c.isPut()) {
        puts.add(name);
      } else {
        deleting.add(name);
      }
    }
    for (String put : puts) {
      String under = puts.higher(put + "/");
      if (puts.contains(put + "/") || (under != null && under.startsWith(put + "/"))) {
        throw NameConflictException.clash(archive, put, under);
      }
    }
    return changes;
  }
}
