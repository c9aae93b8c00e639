package io.hpf.internal.sort;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A directory of a sort's runs under a temporary root ({@code java.io.tmpdir}), which never
 * outlives the work that made it. Closing it deletes it; a process that exits without closing it
 * (an interrupted {@code hpf create}) deletes it on the way out; and a process killed outright
 * leaves it locked by nobody, so the next one to make a scratch directory under the same root
 * deletes it. Runs of a large commit take gigabytes, which a killed writer must not leave behind
 * for good.
 *
 * <p>Each directory holds a lock file its process keeps locked for as long as the directory is in
 * use: the operating system releases the lock however the process ends, so a directory whose lock
 * can be taken is abandoned, even one made by another process (or container) on the same kernel.
 */
public final class ScratchDirectory implements Closeable {
  /** Every scratch directory's name starts with this. */
  static final String PREFIX = "hpf-scratch-";

  private static final String LOCK_FILE = "scratch.lock";
  private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();
  private static final Set<Path> SWEPT_ROOTS = ConcurrentHashMap.newKeySet();

  static {
    // The classes the hook needs, loaded now: at exit a class loader may have closed its jars.
    deleteTree(Path.of(System.getProperty("java.io.tmpdir"), PREFIX + "not-there"));
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> OPEN.forEach(ScratchDirectory::deleteTree), "hpf-scratch-cleanup"));
  }

  private final Path path;
  private final Path key; // its name in OPEN
  private final FileChannel lockChannel;

  private ScratchDirectory(Path path, Path key, FileChannel lockChannel) {
    this.path = path;
    this.key = key;
    this.lockChannel = lockChannel;
  }

  /**
   * A new directory under {@code root} named for {@code purpose}, after deleting the abandoned ones
   * there (the first time this process makes one under {@code root}).
   */
  public static ScratchDirectory create(Path root, String purpose) throws IOException {
    if (SWEPT_ROOTS.add(key(root))) {
      deleteAbandoned(root);
    }
    Path dir = Files.createTempDirectory(root, PREFIX + purpose + "-");
    Path key = key(dir);
    OPEN.add(key); // before its lock file is named: a sweep of this process's never opens it
    FileChannel channel = null;
    try {
      // Locked under another name, then renamed (the lock stays with the file): a process
      // deleting abandoned directories never finds this one's lock file unlocked.
      Path unnamed = dir.resolve(LOCK_FILE + ".new");
      channel = FileChannel.open(unnamed, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
      if (channel.tryLock() == null) {
        throw new IOException(dir + ": could not lock a new scratch directory");
      }
      Files.move(unnamed, dir.resolve(LOCK_FILE));
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      deleteTree(dir);
      OPEN.remove(key);
      throw e;
    }
    return new ScratchDirectory(dir, key, channel);
  }

  public Path path() {
    return path;
  }

  /** A file of this directory. */
  public Path resolve(String name) {
    return path.resolve(name);
  }

  /** Deletes the directory and everything in it. */
  @Override
  public void close() throws IOException {
    lockChannel.close();
    deleteTree(path);
    OPEN.remove(key);
  }

  /**
   * Deletes the scratch directories under {@code root} that no process holds: those whose lock file
   * can be locked. A directory this process holds, or one it cannot judge, is left alone.
   */
  static void deleteAbandoned(Path root) {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, PREFIX + "*")) {
      for (Path dir : dirs) {
        // Never one of ours: closing any channel to a lock file releases this process's lock.
        if (!OPEN.contains(key(dir)) && isAbandoned(dir)) {
          deleteTree(dir);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // A root that cannot be listed has nothing this process could delete either.
    }
  }

  /** One name for a directory however it was reached (a relative root, a link to it). */
  private static Path key(Path dir) {
    try {
      return dir.toRealPath();
    } catch (IOException e) {
      return dir.toAbsolutePath().normalize();
    }
  }

  private static boolean isAbandoned(Path dir) {
    Path lock = dir.resolve(LOCK_FILE);
    if (!Files.isRegularFile(lock)) {
      return false; // not made by this class, or still being made
    }
    try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
      FileLock taken = channel.tryLock();
      return taken != null; // closing the channel releases it
    } catch (OverlappingFileLockException e) {
      return false; // held in this JVM
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Deletes a directory and what it holds, as far as it can (space only is lost otherwise): a file
   * that vanishes or cannot be read meanwhile is passed over, not a reason to stop.
   */
  public static void deleteTree(Path dir) {
    try {
      Files.walkFileTree(
          dir,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              deleteQuietly(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException e) {
              deleteQuietly(directory);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // the walk could not start: gone already
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // see deleteTree
    }
  }
}
