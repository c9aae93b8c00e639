package io.hpf.mount;

import io.hpf.archive.EntryMetadata;
import io.hpf.archive.GroupCommitWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A change of a writable mount not yet committed: a file written (put) or a name deleted. It is
 * what the mount shows at its name until a commit holds it. Guarded by the {@link Overlay}'s lock,
 * but for the content, which has its own.
 */
abstract sealed class Pending permits Pending.File, Pending.Deleted {
  /** The entry name it changes; a rename moves a file's. */
  String name;

  /** Its place in the {@link ChangeQueue}, 0 if not queued. */
  long queued;

  /** Queued ever: a commit may hold it, or will. */
  boolean submittedOnce;

  Pending(String name) {
    this.name = name;
  }

  /** The changes that make it, for one commit, with the deletes of {@code movedFrom}. */
  abstract List<GroupCommitWriter.Change> changes(List<String> movedFrom) throws IOException;

  /** A file written: its content, attributes and the names a rename moved it from. */
  static final class File extends Pending {
    final StagedFile content;
    int mode;
    long mtimeMillis;

    /** Names it was renamed from: deleted in the commit that puts it. */
    final Set<String> movedFrom = new LinkedHashSet<>();

    /** Handles open on it to write, and open at all. */
    int writers;

    int handles;

    /** Changed since it was last queued. */
    boolean dirty;

    /** An fsync asked for it to go while open. */
    boolean syncing;

    /**
     * The files a directory's rename moved with it, this one among them: sent in one commit by the
     * first of them the queue reaches; null once sent (or for a file moved alone).
     */
    List<File> together;

    /** No longer the mount's at any name (deleted, replaced, committed): discard at last close. */
    boolean detached;

    File(String name, StagedFile content, int mode, long mtimeMillis) {
      super(name);
      this.content = content;
      this.mode = mode;
      this.mtimeMillis = mtimeMillis;
    }

    @Override
    List<GroupCommitWriter.Change> changes(List<String> movedFrom) throws IOException {
      List<GroupCommitWriter.Change> changes = new ArrayList<>();
      changes.add(
          GroupCommitWriter.Change.put(
              name, content.content(), new EntryMetadata(mtimeMillis, mode, java.util.Map.of())));
      for (String from : movedFrom) {
        changes.add(GroupCommitWriter.Change.delete(from));
      }
      return changes;
    }

    /** Lets go of the content once nothing reads it and the mount no longer shows it. */
    void discardIfUnused() {
      if (detached && handles == 0) {
        content.discard();
      }
    }
  }

  /**
   * A name deleted: by its own change, or, with an {@code owner}, by the commit that puts the file
   * renamed from it.
   */
  static final class Deleted extends Pending {
    Pending owner;

    Deleted(String name) {
      super(name);
    }

    @Override
    List<GroupCommitWriter.Change> changes(List<String> movedFrom) {
      return List.of(GroupCommitWriter.Change.delete(name));
    }
  }
}
