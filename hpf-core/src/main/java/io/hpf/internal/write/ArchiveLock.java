package io.hpf.internal.write;

import io.hpf.archive.model.ArchiveLockedException;
import io.hpf.store.AppendableFile;
import io.hpf.store.LocalStorage;
import io.hpf.store.ReadableFile;
import io.hpf.store.Storage;
import io.hpf.store.Storage.FileUse;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The one-writer-at-a-time lock (FORMAT.md "Lock file"): a file created atomically (create fails if
 * it exists) holding the writer's host, process id and start time. Readers never look at it.
 *
 * <p>On local disk the writer also holds an OS lock (fcntl) on the file for its life, and a lock
 * left by a writer of this host that is no longer running (its pid gone, or taken by a process
 * started later) is taken over without being asked: whoever gets the OS lock of the stale file
 * rewrites its holder line and keeps it, so of two writers that find the same stale lock exactly
 * one takes it. Elsewhere (HDFS, S3, another host's lock) a live writer and a dead one look the
 * same, and a lock is broken only when asked to ({@code --break-lock}).
 */
public final class ArchiveLock implements Closeable {
  public static final String FILE_NAME = "hpf.lock";

  /** How often a lock found in the midst of being made or let go is tried again. */
  private static final int ATTEMPTS = 50;

  /**
   * Lock files this process holds or is taking, with their holder lines ("" while being taken): it
   * must never open another channel to one (closing it would let the OS lock go).
   */
  private static final java.util.concurrent.ConcurrentHashMap<Path, String> HELD =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Storage storage;
  private final FileChannel channel; // local disk: the file whose OS lock is held, else null
  private final Path path;
  private final String tookOverFrom;
  private boolean released;

  private ArchiveLock(Storage storage, FileChannel channel, Path path, String tookOverFrom) {
    this.storage = storage;
    this.channel = channel;
    this.path = path;
    this.tookOverFrom = tookOverFrom;
  }

  public static ArchiveLock acquire(Storage storage, boolean breakLock) throws IOException {
    if (storage instanceof LocalStorage local) {
      try {
        return acquireLocal(local, breakLock);
      } catch (NoOsLocks e) {
        // A file system without fcntl locks (some network and FUSE ones): the lock file alone, as
        // on HDFS, and a dead writer's lock is broken only when asked.
      }
    }
    return acquireByCreate(storage, breakLock);
  }

  /** The lock as a file created exclusively, nothing more (FORMAT.md "Lock file"). */
  private static ArchiveLock acquireByCreate(Storage storage, boolean breakLock)
      throws IOException {
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
    String holder = newHolder();
    try (AppendableFile file = storage.create(FILE_NAME, FileUse.ONCE)) {
      file.write(holder.getBytes(StandardCharsets.UTF_8));
      file.sync();
    } catch (FileAlreadyExistsException e) {
      throw new ArchiveLockedException(storage.describe(FILE_NAME), holder(storage));
    }
    return new ArchiveLock(storage, null, null, null);
  }

  /**
   * The holder line of the writer that died whose lock this one took over, or null: what a command
   * tells its user ("took over the lock of a writer that died: ...").
   */
  public String tookOverFrom() {
    return tookOverFrom;
  }

  private static String newHolder() {
    return "host "
        + hostName()
        + ", pid "
        + ManagementFactory.getRuntimeMXBean().getPid()
        + ", since "
        + Instant.now();
  }

  /**
   * On local disk: creates the lock file, or takes over one left by a dead writer of this host (or
   * by any writer not running here, with {@code breakLock}), holding its OS lock from then on. This
   * process never opens a second channel to a lock file it holds: closing any would let the OS lock
   * go.
   */
  private static ArchiveLock acquireLocal(LocalStorage storage, boolean breakLock)
      throws IOException {
    Path path = storage.directory().resolve(FILE_NAME).toAbsolutePath().normalize();
    String described = storage.describe(FILE_NAME);
    String ours = HELD.putIfAbsent(path, "");
    if (ours != null) {
      throw new ArchiveLockedException(
          described,
          ours.isEmpty() ? "a writer of this process" : ours,
          "a writer of this process: wait for it to end");
    }
    boolean held = false;
    try {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        ArchiveLock lock = tryLocal(storage, path, described, breakLock);
        if (lock != null) {
          held = true;
          return lock;
        }
        sleepBriefly(); // a lock being made or let go by another writer this very moment
      }
      throw new ArchiveLockedException(described, holder(storage));
    } finally {
      if (!held) {
        HELD.remove(path);
      }
    }
  }

  /** One try: the lock, or null to try again; throws where a writer that runs holds it. */
  private static ArchiveLock tryLocal(
      LocalStorage storage, Path path, String described, boolean breakLock) throws IOException {
    Object before = fileKey(path);
    boolean created = before == null;
    FileChannel channel;
    try {
      channel =
          created
              ? FileChannel.open(
                  path,
                  StandardOpenOption.CREATE_NEW,
                  StandardOpenOption.READ,
                  StandardOpenOption.WRITE)
              : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (FileAlreadyExistsException | java.nio.file.NoSuchFileException raced) {
      return null;
    }
    boolean keep = false;
    try {
      java.nio.channels.FileLock osLock;
      try {
        osLock = channel.tryLock();
      } catch (IOException unsupported) {
        if (created) {
          java.nio.file.Files.deleteIfExists(path); // made by this try: not a lock of anyone's
        }
        throw new NoOsLocks(unsupported);
      }
      if (osLock == null) {
        throw new ArchiveLockedException(described, read(channel)); // a writer that runs
      }
      // The OS lock is of the file opened: it must still be the one at the path (not one its
      // writer let go meanwhile, deleted, and another made again).
      Object now = fileKey(path);
      if (now == null || (!created && !now.equals(before))) {
        return null;
      }
      String stale = null;
      if (!created) {
        String holder = read(channel);
        if (holder.isEmpty()) {
          // Made by a writer that died before it wrote its line (one alive would hold the OS lock,
          // or fail to take it now that this one holds it, and give up): taken over.
          holder = "no holder written: its writer died making it";
        } else if (holderIsAliveHere(holder)) {
          throw new ArchiveLockedException(
              described,
              holder,
              "that process is alive on this host"
                  + (breakLock ? ", so the lock is not broken" : ": wait for it to end"));
        } else if (!breakLock && !namesThisHost(holder)) {
          throw new ArchiveLockedException(described, holder + ageOf(holder));
        }
        stale = holder;
      }
      String line = newHolder();
      channel.truncate(0);
      channel.write(java.nio.ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(true);
      HELD.put(path, line);
      keep = true;
      return new ArchiveLock(storage, channel, path, stale);
    } finally {
      if (!keep) {
        channel.close();
      }
    }
  }

  /** The file system takes no OS locks: the lock is taken as elsewhere. */
  private static final class NoOsLocks extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoOsLocks(IOException cause) {
      super(cause);
    }
  }

  /** The file's identity (inode) at {@code path}, asked without opening it; null if none. */
  private static Object fileKey(Path path) throws IOException {
    try {
      return java.nio.file.Files.readAttributes(
              path,
              java.nio.file.attribute.BasicFileAttributes.class,
              java.nio.file.LinkOption.NOFOLLOW_LINKS)
          .fileKey();
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    }
  }

  private static void sleepBriefly() throws IOException {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while taking the lock");
    }
  }

  private static String read(FileChannel channel) throws IOException {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1024);
    while (b.hasRemaining() && channel.read(b, b.position()) > 0) {
      // a line of at most a few hundred bytes
    }
    return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
  }

  private static boolean namesThisHost(String holder) {
    return holder.startsWith("host " + hostName() + ", pid ");
  }

  /** ", taken N s ago" from the holder's time, or nothing where it names none. */
  private static String ageOf(String holder) {
    int since = holder.lastIndexOf(", since ");
    try {
      Instant at = Instant.parse(holder.substring(since + ", since ".length()));
      return ", taken " + java.time.Duration.between(at, Instant.now()).toSeconds() + " s ago";
    } catch (RuntimeException e) {
      return "";
    }
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

  /**
   * Deletes the lock file, then lets its OS lock go: a writer that opened the file meanwhile and
   * then gets its OS lock finds the path no longer names it, and starts again.
   */
  @Override
  public void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    try {
      storage.delete(FILE_NAME);
    } finally {
      if (channel != null) {
        HELD.remove(path);
        channel.close();
      }
    }
  }
}
