package io.hpf.archive;

import io.hpf.format.Codec;
import io.hpf.store.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Packs a local directory tree into a new archive: lists it, optionally trains a zstd dictionary on
 * a sample, then reads, compresses and appends files on several threads (each with its own part
 * file) and commits once. Entry names are the paths relative to the source, with '/'.
 */
public final class Packer {
  private record Source(String name, Path path, long size, long mtimeMillis, int mode) {}

  /** Each worker reads every file into its own buffer, grown as needed: no garbage per file. */
  private static final ThreadLocal<byte[][]> READ_BUFFER =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[64 * 1024]});

  private Packer() {}

  public static PackResult pack(
      Path sourceDir,
      Storage target,
      WriterOptions writerOptions,
      PackOptions options,
      ProgressListener progress)
      throws IOException {
    requireDirectory(sourceDir);
    List<String> skipped = Collections.synchronizedList(new ArrayList<>());
    WriterOptions effective = writerOptions;
    List<Source> listed = null;
    if (writerOptions.codec() == Codec.ZSTD
        && writerOptions.dictionary() == null
        && options.trainDictionary()) {
      // Training needs a sample of the whole tree before the first file is compressed.
      List<Source> all = new ArrayList<>();
      walk(sourceDir, "", options, skipped, all::add, () -> false);
      all.sort((x, y) -> x.name.compareTo(y.name));
      listed = all;
      byte[] dictionary = DictionaryTrainer.train(all.stream().map(Source::path).toList());
      if (dictionary != null) {
        effective = writerOptions.withDictionary(dictionary);
      }
    }
    try (ArchiveWriter writer = ArchiveWriter.create(target, effective)) {
      long bytes = feedWorkers(writer, sourceDir, "", listed, options, skipped, progress);
      Manifest manifest = writer.commit();
      return new PackResult(manifest, manifest.entryCount(), bytes, skipped);
    }
  }

  /**
   * Adds a local tree to an open writer, without committing: entry names are {@code prefix}
   * followed by the paths relative to {@code sourceDir}. Returns the files added and skipped.
   */
  public static PackResult addTree(
      ArchiveWriter writer,
      Path sourceDir,
      String prefix,
      PackOptions options,
      ProgressListener progress)
      throws IOException {
    requireDirectory(sourceDir);
    List<String> skipped = Collections.synchronizedList(new ArrayList<>());
    long before = writer.pendingEntries();
    long bytes = feedWorkers(writer, sourceDir, prefix, null, options, skipped, progress);
    return new PackResult(writer.manifest(), writer.pendingEntries() - before, bytes, skipped);
  }

  private static void requireDirectory(Path sourceDir) throws NoSuchFileException {
    if (!Files.isDirectory(sourceDir)) {
      throw new NoSuchFileException(sourceDir + ": not a directory");
    }
  }

  /** Lists (or replays {@code listed}) on this thread while workers pack; returns bytes listed. */
  private static long feedWorkers(
      ArchiveWriter writer,
      Path sourceDir,
      String prefix,
      List<Source> listed,
      PackOptions options,
      List<String> skipped,
      ProgressListener progress)
      throws IOException {
    Feed feed = new Feed(options.threads());
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < options.threads(); t++) {
      Thread worker = new Thread(() -> feed.work(writer, options, skipped, progress), "hpf-pack");
      worker.setDaemon(true);
      workers.add(worker);
      worker.start();
    }
    try {
      if (listed != null) {
        for (Source source : listed) {
          if (!feed.offer(source)) {
            break;
          }
        }
      } else {
        walk(sourceDir, prefix, options, skipped, feed::offer, feed::failed);
      }
    } finally {
      feed.endOfSources();
      for (Thread worker : workers) {
        joinUninterruptibly(worker);
      }
    }
    feed.rethrow();
    return feed.bytesListed.get();
  }

  /**
   * Hands sources from the lister to the workers through a bounded queue, counts progress, and
   * keeps the first failure: after one, the lister stops and the workers drain and exit.
   */
  private static final class Feed {
    private static final Source END = new Source(null, null, 0, 0, 0);
    private final java.util.concurrent.BlockingQueue<Source> queue =
        new java.util.concurrent.ArrayBlockingQueue<>(4096);
    private final int workers;
    private final AtomicLong filesListed = new AtomicLong();
    private final AtomicLong bytesListed = new AtomicLong();
    private final AtomicLong filesDone = new AtomicLong();
    private final AtomicLong bytesDone = new AtomicLong();
    private volatile boolean listingDone;
    private volatile Throwable failure;

    Feed(int workers) {
      this.workers = workers;
    }

    boolean failed() {
      return failure != null;
    }

    /** Queues a source; false once a worker failed (the lister should stop). */
    boolean offer(Source source) {
      filesListed.incrementAndGet();
      bytesListed.addAndGet(source.size);
      try {
        while (!failed()) {
          if (queue.offer(source, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            return true;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail(new java.io.InterruptedIOException("interrupted while packing"));
      }
      return false;
    }

    /** Gives every worker its END; workers drain the queue, so the puts always complete. */
    void endOfSources() {
      listingDone = true;
      boolean interrupted = false;
      for (int i = 0; i < workers; ) {
        try {
          queue.put(END);
          i++;
        } catch (InterruptedException e) {
          interrupted = true;
          fail(new java.io.InterruptedIOException("interrupted while packing"));
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    void work(
        ArchiveWriter writer,
        PackOptions options,
        List<String> skipped,
        ProgressListener progress) {
      // Each worker takes exactly one END, so a worker that failed keeps taking (and skipping)
      // sources until its END: clearing the queue could discard another worker's END.
      for (Source s = take(); s.path != null; s = take()) { // END has no path
        if (failed()) {
          continue;
        }
        try {
          if (addOne(writer, s, options, skipped)) {
            filesDone.incrementAndGet();
          }
          progress.progress(
              filesDone.get(),
              bytesDone.addAndGet(s.size),
              listingDone ? filesListed.get() : -1,
              listingDone ? bytesListed.get() : -1);
        } catch (Throwable e) {
          fail(e);
        }
      }
    }

    private Source take() {
      while (true) {
        try {
          return queue.take();
        } catch (InterruptedException e) {
          fail(new java.io.InterruptedIOException("interrupted while packing"));
        }
      }
    }

    private synchronized void fail(Throwable e) {
      if (failure == null) {
        failure = e;
      }
    }

    void rethrow() throws IOException {
      Throwable e = failure;
      if (e instanceof IOException io) {
        throw io;
      }
      if (e instanceof RuntimeException re) {
        throw re;
      }
      if (e instanceof Error error) {
        throw error;
      }
      if (e != null) {
        throw new IOException(e);
      }
    }
  }

  private static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Adds one file; false if it could not be read and the options say to skip such files. Errors
   * reading the source are told apart from errors writing the archive, which always fail.
   */
  private static boolean addOne(
      ArchiveWriter writer, Source s, PackOptions options, List<String> skipped)
      throws IOException {
    EntryMetadata meta = new EntryMetadata(s.mtimeMillis, s.mode, java.util.Map.of());
    byte[] content = null;
    int length = 0;
    InputStream stream = null;
    try {
      if (s.size <= writer.options().streamThresholdBytes()) {
        content = READ_BUFFER.get()[0];
        if (content.length < s.size + 1) {
          content = new byte[(int) Math.max(s.size + 1, 2L * content.length)];
          READ_BUFFER.get()[0] = content;
        }
        length = readFile(s.path, content);
      } else {
        stream = Files.newInputStream(s.path);
      }
    } catch (IOException e) {
      String why =
          e instanceof AccessDeniedException
              ? "permission denied"
              : e instanceof NoSuchFileException ? "vanished while packing" : e.toString();
      if (options.skipUnreadable()) {
        skipped.add(s.path + ": cannot read (" + why + ")");
        return false;
      }
      throw new IOException(
          s.path + ": cannot read (" + why + "); use --skip-unreadable to skip such files", e);
    }
    if (content != null) {
      writer.add(s.name, content, length, meta);
    } else {
      try (InputStream in = stream) {
        writer.addStream(s.name, in, s.size, meta, s.path.toString());
      }
    }
    return true;
  }

  /**
   * Reads a whole file into {@code buffer} and returns its length. The buffer has room for one byte
   * more than the size listed, so a file that grew since is noticed, not cut short.
   */
  private static int readFile(Path path, byte[] buffer) throws IOException {
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(path)) {
      java.nio.ByteBuffer target = java.nio.ByteBuffer.wrap(buffer);
      while (target.hasRemaining()) {
        if (channel.read(target) < 0) {
          return target.position();
        }
      }
      throw new IOException(
          path + ": file grew while being read (now over " + (buffer.length - 1) + " bytes)");
    }
  }

  /** Permission bits from the walk's own attributes (POSIX on Unix), without another stat. */
  private static int modeOf(BasicFileAttributes attrs) {
    if (attrs instanceof java.nio.file.attribute.PosixFileAttributes posix) {
      int mode = 0;
      for (java.nio.file.attribute.PosixFilePermission p : posix.permissions()) {
        mode |= 1 << (8 - p.ordinal()); // OWNER_READ is ordinal 0, i.e. bit 8 (0400)
      }
      return mode;
    }
    return EntryMetadata.DEFAULT_MODE;
  }

  /** Walks the tree, giving each regular file to {@code sink}; stops early if told to. */
  private static void walk(
      Path root,
      String prefix,
      PackOptions options,
      List<String> skipped,
      java.util.function.Consumer<Source> sink,
      java.util.function.BooleanSupplier stop)
      throws IOException {
    Set<FileVisitOption> visit =
        options.followSymlinks()
            ? EnumSet.of(FileVisitOption.FOLLOW_LINKS)
            : EnumSet.noneOf(FileVisitOption.class);
    Files.walkFileTree(
        root,
        visit,
        Integer.MAX_VALUE,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (attrs.isSymbolicLink()) {
              skipped.add(file + ": symbolic link (use --follow-symlinks to follow)");
            } else if (!attrs.isRegularFile()) {
              skipped.add(file + ": not a regular file");
            } else {
              String name;
              try {
                name = prefix + entryName(root, file);
              } catch (IOException e) {
                if (!options.skipUnreadable()) {
                  throw e;
                }
                skipped.add(e.getMessage());
                return FileVisitResult.CONTINUE;
              }
              sink.accept(
                  new Source(
                      name,
                      file,
                      attrs.size(),
                      attrs.lastModifiedTime().toMillis(),
                      modeOf(attrs)));
            }
            return stop.getAsBoolean() ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof FileSystemLoopException) {
              throw new IOException(file + ": symbolic link loop", e);
            }
            if (options.skipUnreadable()) {
              skipped.add(file + ": cannot read (" + e.getClass().getSimpleName() + ")");
              return FileVisitResult.CONTINUE;
            }
            throw new IOException(
                file + ": cannot read; use --skip-unreadable to skip such files", e);
          }
        });
  }

  /** The entry name of a source file; a name that did not decode as UTF-8 is an error. */
  private static String entryName(Path root, Path file) throws IOException {
    StringBuilder name = new StringBuilder();
    for (Path component : root.relativize(file)) {
      if (name.length() > 0) {
        name.append('/');
      }
      name.append(component.toString());
    }
    String result = name.toString();
    if (result.indexOf('\uFFFD') >= 0) {
      throw new IOException(
          file + ": file name is not valid UTF-8 (entry names are UTF-8); rename it");
    }
    return result;
  }
}
