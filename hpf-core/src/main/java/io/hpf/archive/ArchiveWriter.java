package io.hpf.archive;

import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.archive.model.CompactionResult;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.EntryNotFoundException;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.NameConflictException;
import io.hpf.archive.model.RecoveryResult;
import io.hpf.archive.model.WriterOptions;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.EntryNames;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.maintenance.Recovery;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.write.ArchiveLock;
import io.hpf.internal.write.CommitPlan;
import io.hpf.internal.write.ImportMarker;
import io.hpf.internal.write.PartPool;
import io.hpf.internal.write.PartWriter;
import io.hpf.internal.write.SortedRows;
import io.hpf.store.Storage;
import io.hpf.store.Storage.StoredFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one writer of an archive: creates it, or opens it to add, replace and delete entries and to
 * compact it. Entries go to new part files; {@link #commit()} adds one segment (catalog, index,
 * tombstones) and makes the change visible at once by renaming a new manifest into place. Readers
 * never block and never see a partial commit.
 *
 * <p>Holding the writer lock for its life, it first recovers what a writer that died left behind
 * (see {@link Recovery}). After each commit it runs the tiered compaction policy and deletes files
 * that readers can no longer need (after the grace period).
 *
 * <p>{@link #add} and {@link #delete} are thread-safe and scale with the calling threads (each add
 * borrows a part file no other thread is writing). {@link #commit()}, {@link #compact} and {@link
 * #close()} must not run concurrently with them. Closing without committing deletes what was
 * written since the last commit.
 */
public final class ArchiveWriter implements Closeable {
  /**
   * The writer's state machine. OPEN: adds, deletes, commits and compactions are taken. FAILED: a
   * change of the archive's files began and its manifest is not yet in place; it stays FAILED when
   * that change throws, since the writer's view of the archive may then be wrong, and only {@link
   * #close} is taken. CLOSED: nothing is. Invariant: FAILED is entered only by {@link #beginChange}
   * and left only by {@link #changeDone}, around every commit.
   */
  private enum State {
    OPEN,
    FAILED,
    CLOSED
  }

  private static final int DICTIONARY_ID_FIRST = 1;

  private final Storage storage;

  /** The options resolved against the archive: its settings where the options leave them. */
  private final WriterOptions options;

  private final List<String> settingChanges;
  private final ArchiveLock lock;
  private final RecoveryResult recovery;
  private final WriterCommits commits;
  private final Set<String> deletes = java.util.Collections.synchronizedSet(new LinkedHashSet<>());
  private volatile State state = State.OPEN;

  /**
   * @param options resolved against the base ({@link WriterOptions#resolve})
   * @param settingChanges what the resolution said the options change
   */
  ArchiveWriter(
      Storage storage,
      WriterOptions options,
      List<String> settingChanges,
      ArchiveLock lock,
      WriterCommits commits,
      RecoveryResult recovery) {
    this.storage = storage;
    this.options = options;
    this.settingChanges = List.copyOf(settingChanges);
    this.lock = lock;
    this.commits = commits;
    this.recovery = recovery;
  }

  WriterCommits commits() {
    return commits;
  }

  /**
   * Starts a new archive in an empty directory.
   *
   * @throws FileAlreadyExistsException if the directory already holds files
   */
  public static ArchiveWriter create(Storage storage, WriterOptions options) throws IOException {
    List<StoredFile> existing = storage.list();
    if (!existing.isEmpty()
        && existing.stream().allMatch(f -> f.name().equals(ArchiveLock.FILE_NAME))) {
      // Another creator's lock alone: its holder is named (a dead one's lock is taken over).
      ArchiveLock.acquire(storage, false).close();
      existing = storage.list();
    }
    if (!existing.isEmpty()) {
      boolean isArchive =
          existing.stream().anyMatch(f -> FileNames.manifestGeneration(f.name()) >= 0);
      throw new FileAlreadyExistsException(
          storage
              + (isArchive
                  ? ": already an archive"
                  : ": directory is not empty ("
                      + existing.size()
                      + (existing.size() == 1 ? " file)" : " files)")));
    }
    WriterOptions resolved = options.resolveForNew(storage);
    ArchiveLock lock = ArchiveLock.acquire(storage, false);
    try {
      Dictionary dictionary = null;
      byte[] bytes = resolved.dictionary();
      if (bytes != null) {
        // Written into the first commit's segment file, where the manifest will find it.
        dictionary = new Dictionary(DICTIONARY_ID_FIRST, bytes);
      }
      return new ArchiveWriter(
          storage,
          resolved,
          List.of(),
          lock,
          new WriterCommits(storage, resolved, dictionary, null, 1),
          new RecoveryResult(0, 0, 0, 0, 0, List.of(), null));
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  /**
   * Opens an existing archive for changes: takes the lock (an {@link ArchiveLockedException} names
   * the holder), then recovers and commits what a writer that died left uncommitted. New entries
   * are stored as the archive's settings say unless the options change them ({@link
   * #settingChanges()}), zstd ones with the archive's newest dictionary.
   */
  public static ArchiveWriter open(Storage storage, WriterOptions requested) throws IOException {
    return WriterOpening.open(storage, requested);
  }

  /** The options this writer works with: resolved against the archive's settings. */
  public WriterOptions options() {
    return options;
  }

  /**
   * Archive settings (kept in the manifest) that these options change from the next commit on, one
   * line each, for the user to be told; empty when the archive's settings stand.
   */
  public List<String> settingChanges() {
    return settingChanges;
  }

  /** What opening found and recovered from a writer that died (nothing for a new archive). */
  public RecoveryResult recovery() {
    return recovery;
  }

  /** The last committed manifest, or null before the first commit of a new archive. */
  public Generation manifest() {
    return commits.base();
  }

  /** Entries added since the last commit. */
  public long pendingEntries() {
    return commits.pool().pendingEntries();
  }

  /** Adds an entry held in memory. Thread-safe. */
  public void add(String name, byte[] content, EntryMetadata meta) throws IOException {
    add(name, content, content.length, meta);
  }

  /**
   * Adds an entry whose content is {@code content[0, length)}; the array is not kept, so a caller
   * may reuse one buffer for many entries. Thread-safe.
   */
  public void add(String name, byte[] content, int length, EntryMetadata meta) throws IOException {
    String normalized = admit(name);
    append(
        normalized, (part, nameUtf8) -> part.append(normalized, nameUtf8, content, length, meta));
  }

  /**
   * Adds an entry whose content is {@code length} bytes read from a stream, stored raw and never
   * held in memory whole (for sources of any size, 2 GiB and over). Thread-safe.
   *
   * @param source names the source in errors
   */
  public void addStream(String name, InputStream in, long length, EntryMetadata meta, String source)
      throws IOException {
    String normalized = admit(name);
    append(
        normalized,
        (part, nameUtf8) -> part.appendStream(normalized, nameUtf8, in, length, meta, source));
  }

  /**
   * Adds a local file: read whole and compressed when it is at most the stream threshold, streamed
   * raw otherwise. Thread-safe.
   */
  public void addFile(String name, Path file, EntryMetadata meta) throws IOException {
    String normalized = admit(name); // before the file is read
    long size = Files.size(file);
    if (size <= options.streamThresholdBytes()) {
      byte[] content = Files.readAllBytes(file);
      append(
          normalized,
          (part, nameUtf8) -> part.append(normalized, nameUtf8, content, content.length, meta));
      return;
    }
    try (InputStream in = Files.newInputStream(file)) {
      append(
          normalized,
          (part, nameUtf8) ->
              part.appendStream(normalized, nameUtf8, in, size, meta, file.toString()));
    }
  }

  /** One append to a part file borrowed from the pool. */
  @FunctionalInterface
  private interface Append {
    void to(PartWriter part, byte[] nameUtf8) throws IOException;
  }

  /** Appends an admitted name's entry to a borrowed part file and gives the part back. */
  private void append(String normalized, Append append) throws IOException {
    byte[] nameUtf8 = normalized.getBytes(StandardCharsets.UTF_8);
    PartWriter part = borrowPart();
    try {
      append.to(part, nameUtf8);
    } finally {
      commits.pool().giveBack(part);
    }
  }

  /**
   * The normal form of a name to be added, checked against the last commit before any content is
   * read or written: a name the archive has is an error unless replacing was asked for.
   *
   * @throws NameConflictException if the archive has the name and the options do not replace
   */
  private String admit(String name) throws IOException {
    checkOpen();
    String normalized = EntryNames.normalize(name);
    ArchiveReader snapshot = commits.snapshot();
    if (!options.replace() && snapshot != null && snapshot.exists(normalized)) {
      throw NameConflictException.exists(storage.toString(), List.of(normalized), 1);
    }
    return normalized;
  }

  /** Deletes an entry at the next commit; a name the archive does not have is an error then. */
  public void delete(String name) {
    checkOpen();
    deletes.add(EntryNames.normalize(name));
  }

  /** Deletes every entry under a prefix at the next commit; returns how many. */
  public int deletePrefix(String prefix) throws IOException {
    checkOpen();
    ArchiveReader snapshot = commits.snapshot();
    if (snapshot == null) {
      return 0;
    }
    int count = 0;
    for (Iterator<EntryInfo> it = snapshot.list(prefix); it.hasNext(); ) {
      deletes.add(it.next().name());
      count++;
    }
    return count;
  }

  private PartWriter borrowPart() throws IOException {
    checkOpen();
    return commits.pool().borrow();
  }

  private void checkOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("writer is " + state.name().toLowerCase(Locale.ROOT));
    }
  }

  /** A change of the archive's files begins: until {@link #changeDone}, only close is taken. */
  private void beginChange() {
    checkOpen();
    state = State.FAILED;
  }

  /** The change's manifest is in place and the writer's view follows it. */
  private void changeDone() {
    state = State.OPEN;
  }

  /**
   * Commits what was added and deleted since the last commit as one new segment, then compacts by
   * the policy and cleans up. Returns this commit's generation (a compaction by the policy after it
   * is a generation of its own, {@link #manifest()} the newest). REQUIRES: no add or delete
   * running.
   *
   * @throws NameConflictException a name added twice; nothing is committed
   * @throws NameConflictException an added name exists and replacing was not asked for
   * @throws EntryNotFoundException a deleted name does not exist
   */
  public Generation commit() throws IOException {
    return commit(false);
  }

  /**
   * As {@link #commit()}, for {@link GroupCommitWriter}, which commits every few milliseconds: with
   * {@code groupCommit}, parts that can stay open take the entries of later commits too ({@link
   * PartPool#checkpointAll}), so that there is no part file per commit, and names are not checked
   * again for clashes (the group writer checked each as it came, against the same last commit).
   */
  Generation commit(boolean groupCommit) throws IOException {
    beginChange();
    Manifest base = commits.base();
    PartPool pool = commits.pool();
    List<PartWriter.Checkpoint> parts =
        groupCommit ? pool.checkpointAll() : WriterCommits.checkpoints(pool.finishAll());
    Manifest next;
    try (SortedRows added = WriterCommits.sortedRowsOf(parts)) {
      next = commits.planAndCommit(added, parts, deletes, options.replace(), groupCommit);
    }
    if (next == null) {
      changeDone();
      return base; // nothing to commit
    }
    pool.committed(parts);
    deletes.clear();
    commits.advance(next);
    changeDone();
    compactByPolicy(!groupCommit);
    return next;
  }

  /**
   * Commits, as one new generation, the entries of archives written into subdirectories of this
   * archive's directory (the task outputs of a job: {@link ArchiveWriter#create} in each): their
   * part files are moved in under new ids and their rows become one new segment. Names are checked
   * before anything moves: a name in two imports is a {@link NameConflictException}, a name this
   * archive has an {@link NameConflictException} unless the options replace. The imports must have
   * been written without a dictionary or with this archive's newest one. REQUIRES: nothing added or
   * deleted since the last commit; the imports' readers stay open until this returns.
   *
   * @param subdirectories where each import lies, relative to this archive's directory
   * @param imports a reader of each import
   * @param operation what the commit did, for {@code hpf log}
   */
  public Generation commitImported(
      List<String> subdirectories, List<ArchiveReader> imports, String operation)
      throws IOException {
    return commitImported(subdirectories, imports, operation, false);
  }

  /**
   * As {@link #commitImported(List, List, String)}; with {@code replaceAll} the imported entries
   * become the archive's only ones: the new manifest names the imported parts and their segment
   * alone (an overwrite in one commit; readers of older generations keep reading until the
   * cleaner's grace period has passed).
   */
  public Generation commitImported(
      List<String> subdirectories,
      List<ArchiveReader> imports,
      String operation,
      boolean replaceAll)
      throws IOException {
    checkOpen();
    if (commits.pool().pendingEntries() > 0 || !deletes.isEmpty()) {
      throw new IllegalStateException("commit the pending changes before importing");
    }
    Manifest base = commits.base();
    ImportedParts imported =
        ImportedParts.of(
            subdirectories,
            imports,
            Math.max(commits.pool().nextPartId(), base == null ? 1 : base.partIdMark() + 1),
            commits.dictionary());
    SortedRows rows = imported.rows();
    CommitPlan plan =
        replaceAll
            ? CommitPlan.of(
                storage.toString(), rows, List.of(), null, CommitPlan.Lookup.NONE, false)
            : CommitPlan.of(
                storage.toString(), rows, List.of(), base, commits.lastCommit(), options.replace());
    if (plan.rows().size() == 0 && base != null && !replaceAll) {
      return base; // nothing to move in
    }
    beginChange();
    // Should this process die between the moves and the manifest, the next writer must delete
    // what was moved in, not recover it: the marker says which parts they are.
    ImportMarker.write(storage, imported.moves().stream().map(m -> m[2]).toList());
    for (String[] move : imported.moves()) {
      storage.moveIn(move[0], move[1], move[2]);
    }
    Manifest next =
        commits.commitSegment(
            plan.rows(),
            imported.parts(),
            plan.liveEntries(),
            plan.liveBytes(),
            operation,
            !replaceAll,
            null);
    ImportMarker.clear(storage);
    commits.advance(next);
    changeDone();
    compactByPolicy(true);
    return next;
  }

  /**
   * Compacts by the policy after a commit, as one change: the whole policy, or (a group commit
   * under load) only its tiered merges.
   */
  void compactByPolicy(boolean whole) throws IOException {
    beginChange();
    WriterCompaction.byPolicy(commits, options, whole);
    changeDone();
  }

  /**
   * Merges the newest segments, those from {@code firstSegmentId} on (a session's commits), into
   * one: an index-only commit, so that many small commits leave the archive as one would.
   */
  void mergeSegmentsFrom(long firstSegmentId) throws IOException {
    beginChange();
    WriterCompaction.mergeNewest(commits, firstSegmentId);
    changeDone();
  }

  /**
   * Compacts now: merges every segment into one; with {@code reclaim}, also rewrites the live
   * entries into new part files so that the space of deleted and replaced entries is freed.
   * REQUIRES: nothing added or deleted since the last commit.
   */
  public CompactionResult compact(boolean reclaim) throws IOException {
    checkOpen();
    if (commits.base() == null) {
      throw new IllegalStateException("nothing committed yet");
    }
    if (!deletes.isEmpty()) {
      throw new IllegalStateException("commit the pending deletes before compacting");
    }
    beginChange();
    CompactionResult result = WriterCompaction.compact(commits, reclaim);
    changeDone();
    return result;
  }

  /**
   * Ends the session: what was not committed is deleted (for a new archive that never committed,
   * the whole directory content), and the lock is released.
   */
  @Override
  public void close() throws IOException {
    if (state == State.CLOSED) {
      return;
    }
    state = State.CLOSED;
    try {
      commits.close();
      if (commits.base() == null) {
        for (StoredFile file : storage.list()) {
          if (!file.name().equals(ArchiveLock.FILE_NAME)) {
            storage.delete(file.name());
          }
        }
      }
    } finally {
      lock.close();
    }
  }
}
