package io.hpf.archive;

import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.Storage;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One writer for a service that takes single changes from many threads (a server's PUTs and
 * DELETEs, a mount's closed files): each change is appended at once, and changes are committed in
 * groups — a group commits when its window has passed since its first change or when it holds
 * {@link Settings#maxEntries} or {@link Settings#maxBytes}, whichever comes first. Under load
 * groups grow, so commits per second stay bounded while each change waits at most about a window
 * and a commit. Each change's future completes with the generation of a commit that holds it once
 * that commit is durable (part files and manifest forced by the storage), or fails with the reason
 * it could not be committed.
 *
 * <p>The semantics are an object store's: a put replaces an entry of the same name, a delete of a
 * name the archive does not have succeeds, and changes of one name are applied in the order their
 * calls return (a change of a name the open group already changes waits for that group's commit). A
 * put that would make a name both an entry and a directory ({@code a/b} beside {@code a/b/c}) is
 * refused alone ({@link NameConflictException}), never failing the others of its group.
 * Thread-safe; {@link #close} commits what is pending. Auto-compaction runs after commits as for
 * any writer.
 */
public final class GroupCommitWriter implements Closeable {
  /**
   * When a group commits.
   *
   * @param windowMillis at most this long after its first change
   * @param maxEntries or once it holds this many changes
   * @param maxBytes or once its content is this many bytes
   */
  public record Settings(long windowMillis, int maxEntries, long maxBytes) {
    public static final Settings DEFAULTS = new Settings(2, 10_000, 64L << 20);

    public Settings {
      if (windowMillis < 0 || maxEntries < 1 || maxBytes < 1) {
        throw new IllegalArgumentException("a window of 0 ms or more, groups of at least 1");
      }
    }
  }

  private final Storage storage;
  private final WriterOptions options;
  private final Settings settings;

  /** Changes hold it shared while they append; a commit holds it alone. */
  private final ReentrantReadWriteLock appending = new ReentrantReadWriteLock();

  private volatile ArchiveWriter writer; // replaced after a failed commit, the lock held alone
  private ChangeGroup open = new ChangeGroup(); // guarded by this
  private boolean closing; // guarded by this
  private final Thread committer;
  private final DirectoryFilter directories;

  /**
   * The first segment id this writer's commits make (all of an archive empty when it opened): they
   * are merged into one when it closes.
   */
  private final long firstSessionSegment;

  private static long firstSessionSegment(io.hpf.internal.manifest.Manifest opened) {
    if (opened == null || opened.liveEntries() == 0) {
      return 0;
    }
    return opened.segments().stream().mapToLong(s -> s.segmentId() + 1L).max().orElse(0);
  }

  private GroupCommitWriter(Storage storage, WriterOptions options, Settings settings)
      throws IOException {
    this.storage = storage;
    this.options = options;
    this.settings = settings;
    this.writer = openWriter(storage, options);
    this.firstSessionSegment = firstSessionSegment(writer.commits().base());
    this.directories = new DirectoryFilter(writer.manifest().liveEntries());
    Thread filler = new Thread(this::fillDirectories, "hpf-directory-filter " + storage);
    filler.setDaemon(true);
    filler.start();
    this.committer = new Thread(this::commitGroups, "hpf-group-commit " + storage);
    committer.setDaemon(true);
    committer.start();
  }

  /**
   * Opens the archive for group commits (taking its lock and recovering, as {@link
   * ArchiveWriter#open}); puts replace, whatever {@code options} say of replacing.
   */
  public static GroupCommitWriter open(Storage storage, WriterOptions options, Settings settings)
      throws IOException {
    WriterOptions replacing = options.toBuilder().replace(true).build();
    return new GroupCommitWriter(storage, replacing, settings);
  }

  /**
   * Fills the directory filter from the archive as it is now (puts from now on add their own
   * parents as they join a group); a failure leaves it unfilled, and every put checked exactly.
   */
  private void fillDirectories() {
    try (ArchiveReader names = ArchiveReader.open(storage)) {
      directories.fill(names.list(""));
    } catch (IOException | RuntimeException e) {
      // Only speed is lost: puts keep asking the catalogs.
    }
  }

  private static ArchiveWriter openWriter(Storage storage, WriterOptions options)
      throws IOException {
    ArchiveWriter opened = ArchiveWriter.open(storage, options);
    opened.commits().cleanAsSuperseded();
    return opened;
  }

  /**
   * What must hold of the last commit for a change to be made (an S3 client's {@code If-Match},
   * {@code If-None-Match: *}): checked when no other change of the name is pending, so that nothing
   * changes the name between the check and the change.
   */
  @FunctionalInterface
  public interface Precondition {
    Precondition NONE = (committed, name) -> true;

    /**
     * Whether the change of {@code name} may be made, {@code committed} reading the last commit.
     */
    boolean holds(ArchiveReader committed, String name) throws IOException;
  }

  /** A change refused because its {@link Precondition} did not hold. */
  public static final class PreconditionFailedException extends IOException {
    PreconditionFailedException(String archive, String name) {
      super(archive + ": '" + name + "' is not as the request's condition requires");
    }
  }

  /**
   * One change of {@link #apply}: a put of {@code content} (with its metadata) or, with none, a
   * delete.
   */
  public record Change(String name, byte[] content, EntryMetadata meta) {
    public static Change put(String name, byte[] content, EntryMetadata meta) {
      return new Change(name, java.util.Objects.requireNonNull(content, "content"), meta);
    }

    public static Change delete(String name) {
      return new Change(name, null, null);
    }

    boolean isPut() {
      return content != null;
    }
  }

  /** Adds or replaces an entry; the future completes once a durable commit holds it. */
  public CompletableFuture<Generation> put(String name, byte[] content, EntryMetadata meta) {
    return change(List.of(Change.put(name, content, meta)), Precondition.NONE);
  }

  /**
   * As {@link #put(String, byte[], EntryMetadata)}, if {@code condition} holds; otherwise the
   * future fails with {@link PreconditionFailedException}.
   */
  public CompletableFuture<Generation> put(
      String name, byte[] content, EntryMetadata meta, Precondition condition) {
    return change(List.of(Change.put(name, content, meta)), condition);
  }

  /** Deletes an entry (a name the archive does not have is no error); as {@link #put}. */
  public CompletableFuture<Generation> delete(String name) {
    return change(List.of(Change.delete(name)), Precondition.NONE);
  }

  /**
   * Makes {@code changes} in one commit: readers of the archive see all of them or none (a rename:
   * the new name put and the old one deleted). Their names are distinct, and no put is under
   * another; a put may be under a name the same changes delete. Refused as a whole if the names
   * conflict; a change the writer refuses once appending has begun fails the future, and the
   * changes appended before it are committed.
   */
  public CompletableFuture<Generation> apply(List<Change> changes) {
    if (changes.isEmpty()) {
      return CompletableFuture.completedFuture(manifest());
    }
    return change(changes, Precondition.NONE);
  }

  /**
   * Commits the changes made so far without waiting for the rest of the window (an {@code fsync}
   * waits on them).
   */
  public synchronized void commitSoon() {
    if (!open.isEmpty()) {
      open.full = true;
      notifyAll();
    }
  }

  /** Whether the writer takes no more changes (closed, or it could not go on after a failure). */
  public synchronized boolean isClosed() {
    return closing;
  }

  /** The newest committed generation. */
  public synchronized Generation manifest() {
    return writer.manifest();
  }

  /**
   * The last commit, held (the caller releases it): every change whose future has completed is in
   * it, and no listing of storage is needed to read it. It stays readable, whatever commits follow,
   * until released.
   */
  public ArchiveSnapshot committed() throws IOException {
    return writer.commits().shared();
  }

  /**
   * Whether no entry committed or put since the writer opened lies under {@code name} (so it is no
   * directory of the archive); false when unsure. A look in memory, for a front end that must tell
   * a new name from a directory often.
   */
  public boolean surelyNoEntriesUnder(String name) {
    return directories.surelyNotDirectory(name);
  }

  private CompletableFuture<Generation> change(List<Change> asked, Precondition condition) {
    List<Change> changes;
    Set<String> deleting = new HashSet<>();
    try {
      changes = ChangeGroup.normalized(asked, deleting, storage.toString());
    } catch (NameConflictException | IllegalArgumentException e) { // a name not in normal form
      return CompletableFuture.failedFuture(e);
    }
    while (true) {
      CompletableFuture<Void> wait;
      appending.readLock().lock(); // the committed archive does not change while it is held
      try {
        List<Change> made = new ArrayList<>(); // deletes of names the archive lacks make nothing
        NameConflictException conflict = null;
        try {
          for (Change c : changes) {
            if (c.isPut()) {
              conflict = clashWithCommitted(c.name(), deleting);
              if (conflict != null) {
                break;
              }
              made.add(c);
            } else if (writer.commits().snapshot().stat(c.name()) != null) {
              made.add(c);
            }
          }
        } catch (IOException | RuntimeException e) {
          return CompletableFuture.failedFuture(e);
        }
        ChangeGroup group;
        Exception refused;
        CompletableFuture<Generation> done = new CompletableFuture<>();
        synchronized (this) {
          if (closing) {
            return CompletableFuture.failedFuture(new IllegalStateException("writer is closed"));
          }
          group = open;
          wait = changes.stream().anyMatch(group::clashes) ? group.committed : null;
          if (wait != null) {
            group.full = true; // commit it now: these changes follow it (the conflict may go)
            notifyAll();
          } else if (conflict != null) {
            return CompletableFuture.failedFuture(conflict);
          } else if ((refused = refusal(condition, changes.get(0).name())) != null) {
            return CompletableFuture.failedFuture(refused);
          } else if (made.isEmpty()) {
            return CompletableFuture.completedFuture(writer.manifest()); // nothing to delete
          } else {
            boolean first = group.isEmpty();
            group.join(made, done, settings);
            made.stream().filter(Change::isPut).forEach(c -> directories.addParentsOf(c.name()));
            if (first || group.full) {
              notifyAll(); // the committer waits for a first change, then for the window or this
            }
          }
        }
        if (wait == null) {
          apply(group, made, done);
          return done;
        }
      } finally {
        appending.readLock().unlock();
      }
      wait.exceptionally(e -> null).join();
    }
  }

  /** Why the condition refuses the change (it does not hold, or could not be read), or null. */
  private Exception refusal(Precondition condition, String name) {
    try {
      if (condition == Precondition.NONE || condition.holds(writer.commits().snapshot(), name)) {
        return null;
      }
      return new PreconditionFailedException(storage.toString(), name);
    } catch (IOException | RuntimeException e) {
      return e;
    }
  }

  /**
   * Appends the changes; one the writer refuses fails them, and leaves the group with those after
   * it (those before it stay appended and are committed).
   */
  private void apply(ChangeGroup group, List<Change> changes, CompletableFuture<Generation> done) {
    for (int i = 0; i < changes.size(); i++) {
      Change c = changes.get(i);
      try {
        if (c.isPut()) {
          writer.add(c.name(), c.content(), c.meta());
        } else {
          writer.delete(c.name());
        }
      } catch (IOException | RuntimeException e) {
        synchronized (this) {
          group.leave(changes.subList(i, changes.size()), done);
        }
        done.completeExceptionally(e);
        return;
      }
    }
  }

  /**
   * The conflict a put of {@code name} would make in the committed archive (a parent of it is an
   * entry, or it is a directory of entries), or null; names in {@code deleting} go with it.
   */
  private NameConflictException clashWithCommitted(String name, Set<String> deleting)
      throws IOException {
    ArchiveReader base = writer.commits().snapshot();
    for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
      String parent = name.substring(0, slash);
      if (!deleting.contains(parent) && base.stat(parent) != null) {
        return NameConflictException.clash(storage.toString(), parent, name);
      }
    }
    if (directories.surelyNotDirectory(name)) {
      return null;
    }
    var under = base.list(name + "/");
    while (under.hasNext()) {
      String below = under.next().name();
      if (!deleting.contains(below)) {
        return NameConflictException.clash(storage.toString(), name, below);
      }
    }
    return null;
  }

  /** The committer: takes the open group when its window passes or it fills, and commits it. */
  private void commitGroups() {
    while (true) {
      synchronized (this) {
        try {
          while (open.isEmpty() && !closing) {
            wait();
          }
          if (open.isEmpty()) {
            return; // closing, nothing pending
          }
          // A writer whose last group held one change has one client at a time: waiting would
          // only delay it (PostgreSQL's commit_siblings, in a simpler form).
          long window = lastGroupSize > 1 ? settings.windowMillis() : 0;
          long deadline = open.firstNanos + TimeUnit.MILLISECONDS.toNanos(window);
          for (long left = deadline - System.nanoTime();
              left > 0 && !open.full && !closing;
              left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.timedWait(this, left);
          }
        } catch (InterruptedException e) {
          return; // close() gave up waiting: the writer's close deletes what was not committed
        }
      }
      // The group is taken only once no append is running: every entry in the parts then belongs
      // to it (a change that joined a newer group while an append of this one still ran would
      // otherwise be committed with this group's, its name possibly twice).
      appending.writeLock().lock();
      ChangeGroup group;
      try {
        synchronized (this) {
          group = open;
          open = new ChangeGroup();
        }
        lastGroupSize = group.waiting.size();
        commit(group);
      } finally {
        appending.writeLock().unlock();
      }
      group.committed.complete(null);
    }
  }

  /**
   * Commits a group with every append of it done; its futures learn the outcome. A commit runs only
   * the tiered merges of the compaction policy; the rest of it (keeping the segment count within
   * its limit, reclaiming dead bytes) runs once no change is waiting, or at least every {@link
   * #WHOLE_POLICY_NANOS} under a load that never lets up.
   */
  private void commit(ChangeGroup group) {
    Generation committed;
    try {
      committed = writer.commit(true);
    } catch (IOException | RuntimeException e) {
      group.waiting.forEach(f -> f.completeExceptionally(e));
      reopen(e);
      return;
    }
    group.waiting.forEach(f -> f.complete(committed));
    boolean idle;
    synchronized (this) {
      idle = open.isEmpty() && !appending.hasQueuedThreads(); // no change waits to be appended
    }
    long now = System.nanoTime();
    if (idle || now - wholePolicyNanos > WHOLE_POLICY_NANOS) {
      wholePolicyNanos = now;
      try {
        writer.compactByPolicy(true);
      } catch (IOException | RuntimeException e) {
        reopen(e); // the commit stands; the compaction is tried again by the next writer
      }
    }
  }

  /** The longest a writer under load goes without running the whole compaction policy. */
  private static final long WHOLE_POLICY_NANOS = TimeUnit.SECONDS.toNanos(10);

  private long wholePolicyNanos = System.nanoTime(); // the committer's

  private int lastGroupSize; // the committer's

  /** After a failed commit the writer takes nothing more: a new one, recovering, takes over. */
  private void reopen(Exception failure) {
    try {
      writer.close();
      writer = openWriter(storage, options);
    } catch (IOException | RuntimeException e) {
      e.addSuppressed(failure);
      synchronized (this) {
        closing = true; // nothing can be written any more: every later change fails at once
      }
    }
  }

  /**
   * Commits what is pending, waits for it, runs the whole compaction policy, and closes the writer
   * (releasing the archive's lock).
   */
  @Override
  public void close() throws IOException {
    synchronized (this) {
      if (closing && !committer.isAlive()) {
        return;
      }
      closing = true;
      notifyAll();
    }
    try {
      committer.join();
    } catch (InterruptedException e) {
      committer.interrupt();
      Thread.currentThread().interrupt();
    }
    synchronized (this) {
      try {
        writer.compactByPolicy(true); // what commits under load left for later
        writer.mergeSegmentsFrom(firstSessionSegment); // its many small commits as one
      } catch (IOException | RuntimeException e) {
        // The archive stands as last committed; the next writer's policy tries again.
      } finally {
        writer.close();
      }
    }
  }
}
