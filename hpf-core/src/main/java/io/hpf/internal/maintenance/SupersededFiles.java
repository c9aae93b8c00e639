package io.hpf.internal.maintenance;

import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.ArchiveFiles;
import io.hpf.internal.manifest.Manifest;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * The cleaning of a writer that commits many times a second: instead of listing the directory and
 * reading every manifest still within the grace period at each commit ({@link FileCleaner}, whose
 * cost grows with the commits of the last grace period: hundreds of thousands of files for a busy
 * writer), each commit tells which files the new manifest stopped naming and the manifest it
 * superseded, and those are deleted once the grace period has passed since — the same files at the
 * same time as {@link FileCleaner} would delete them (a file no longer named at time T is named
 * only by manifests superseded by T), found without a listing. Files go first, then the manifest
 * that last named them, oldest first, as {@link FileCleaner} orders them. What a crash leaves
 * undeleted, the next writer's open cleans. Not thread-safe: the writer's commit thread.
 */
public final class SupersededFiles {
  private record Doomed(long deleteAtMillis, String name) {}

  private final Storage storage;
  private final long graceMillis;
  private final ArrayDeque<Doomed> queue = new ArrayDeque<>();

  public SupersededFiles(Storage storage, long graceMillis) {
    this.storage = storage;
    this.graceMillis = graceMillis;
  }

  /**
   * {@code next} superseded {@code previous} at {@code nowMillis}: their difference is queued, and
   * what is due is deleted.
   */
  public void superseded(Manifest previous, Manifest next, long nowMillis) throws IOException {
    Set<String> kept = new HashSet<>();
    for (ArchiveFiles.Expected e : ArchiveFiles.expected(next)) {
      kept.add(e.name());
    }
    long at = nowMillis + graceMillis;
    for (ArchiveFiles.Expected e : ArchiveFiles.expected(previous)) {
      if (!kept.contains(e.name())) {
        queue.add(new Doomed(at, e.name()));
      }
    }
    queue.add(new Doomed(at, FileNames.manifestFileName(previous.generation())));
    while (!queue.isEmpty() && queue.peek().deleteAtMillis() <= nowMillis) {
      storage.delete(queue.poll().name());
    }
  }

  /** Files waiting for their grace period to pass. */
  public int waiting() {
    return queue.size();
  }
}
