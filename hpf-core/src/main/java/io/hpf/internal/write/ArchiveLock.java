package io.hpf.internal.write;

import io.hpf.archive.ArchiveLockedException;
import io.hpf.store.AppendableFile;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;

/**
 * The one-writer-at-a-time lock (FORMAT.md "Lock file"): a file created atomically (create fails if
 * it exists) holding the writer's host, process id and start time. A lock left by a writer that
 * died is broken only when asked to, since from another host a live writer and a dead one look the
 * same. Readers never look at it.
 */
public final class ArchiveLock implements Closeable {
  public static final String FILE_NAME = "hpf.lock";

  private final Storage storage;
  private boolean released;

  private ArchiveLock(Storage storage) {
    this.storage = storage;
  }

  public static ArchiveLock acquire(Storage storage, boolean breakLock) throws IOException {
    if (breakLock) {
      String holder = holder(storage);
      if (holderIsAliveHere(holder)) {
        throw new ArchiveLockedException(
            storage.describe(FILE_NAME),
            holder,
            "that process is alive on this host, so the lock is not broken");
      }
      storage.delete(FILE_NAME);
    }
    String holder =
        "host "
            + hostName()
            + ", pid "
            + ManagementFactory.getRuntimeMXBean().getPid()
            + ", since "
            + Instant.now();
    try (AppendableFile file = storage.create(FILE_NAME, FileUse.ONCE)) {
      file.write(holder.getBytes(StandardCharsets.UTF_8));
      file.sync();
    } catch (FileAlreadyExistsException e) {
      throw new ArchiveLockedException(storage.describe(FILE_NAME), holder(storage));
    }
    return new ArchiveLock(storage);
  }

  private static String holder(Storage storage) {
    try (ReadableFile file = storage.openRead(FILE_NAME, FileUse.ONCE)) {
      return new String(
          file.readFully(0, (int) Math.min(file.length(), 1024)), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "holder unknown: " + e.getMessage();
    }
  }

  /**
   * Whether the lock names a process of this host that is still running: the same pid, started no
   * later than the lock was taken (a later start is another process that got the pid again). From
   * another host nothing can be known, and the user's word is taken.
   */
  public static boolean holderIsAliveHere(String holder) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("^host (.*), pid (\\d+), since (\\S+)$").matcher(holder);
    if (!m.matches() || !m.group(1).equals(hostName())) {
      return false;
    }
    java.util.Optional<ProcessHandle> process;
    Instant since;
    try {
      process = ProcessHandle.of(Long.parseLong(m.group(2)));
      since = Instant.parse(m.group(3));
    } catch (RuntimeException e) {
      return false; // not a lock hpf wrote
    }
    if (process.isEmpty() || !process.get().isAlive()) {
      return false;
    }
    java.util.Optional<Instant> started = process.get().info().startInstant();
    // Start times are kept to the clock tick; a second of slack never mistakes a new process.
    return started.isEmpty() || !started.get().isAfter(since.plusSeconds(1));
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }

  @Override
  public void close() throws IOException {
    if (!released) {
      released = true;
      storage.delete(FILE_NAME);
    }
  }
}
