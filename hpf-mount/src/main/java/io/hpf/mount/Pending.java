package io.hpf.mount;

import io.hpf.archive.GroupCommitWriter;
import io.hpf.archive.model.EntryMetadata;
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

  /**
   * What goes to the archive, as it is when taken under the overlay's lock: a rename may change a
   * file's name the moment after, and its content is read after the lock is let go.
   */
  record Taken(Pending pending, String name, EntryMetadata meta, List<String> movedFrom) {
    /** The changes that make it, for one commit: a put or a delete, and the names moved from. */
    List<GroupCommitWriter.Change> changes() throws IOException {
      List<GroupCommitWriter.Change> changes = new ArrayList<>();
      if (pending instanceof File f) {
        changes.add(GroupCommitWriter.Change.put(name, f.content.content(), meta));
      } else {
        changes.add(GroupCommitWriter.Change.delete(name));
      }
      for (String from : movedFrom) {
        changes.add(GroupCommitWriter.Change.delete(from));
      }
      return changes;
    }
  }

  /** Takes it to send, with the names it moves from (under the overlay's lock). */
  abstract Taken taken(List<String> movedFrom);

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
    Taken taken(List<String> movedFrom) {
      return new Taken(
          this, name, new EntryMetadata(mtimeMillis, mode, java.util.Map.of()), movedFrom);
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
    Taken taken(List<String> movedFrom) {
      return new Taken(this, name, null, List.of());
    }
  }
}
