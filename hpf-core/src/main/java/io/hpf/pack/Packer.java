package io.hpf.pack;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Codec;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.ProgressListener;
import io.hpf.archive.model.WriterOptions;
import io.hpf.pack.SourceTree.SourceFile;
import io.hpf.store.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Packs a local directory tree into a new archive: lists it, optionally trains a zstd dictionary on
 * a sample, then reads, compresses and appends files on several threads (each with its own part
 * file) and commits once. Entry names are the paths relative to the source, with '/'.
 */
public final class Packer {
  /** Each worker reads every file into its own buffer, grown as needed: no garbage per file. */
  private static final ThreadLocal<byte[][]> READ_BUFFER =
      ThreadLocal.withInitial(() -> new byte[][] {new byte[64 * 1024]});

  private Packer() {}

  /** Packs a local directory. */
  public static Packer.Result pack(
      Path sourceDir,
      Storage target,
      WriterOptions writerOptions,
      Packer.Options options,
      ProgressListener progress)
      throws IOException {
    return pack(LocalSourceTree.of(sourceDir), target, writerOptions, options, progress);
  }

  public static Packer.Result pack(
      SourceTree sourceDir,
      Storage target,
      WriterOptions writerOptions,
      Packer.Options options,
      ProgressListener progress)
      throws IOException {
    List<String> skipped = Collections.synchronizedList(new ArrayList<>());
    // A new archive: the options as its writer will resolve them (a dictionary is for zstd).
    WriterOptions effective = writerOptions.resolveForNew(target);
    List<SourceFile> listed = null;
    if (effective.settings().codec() == Codec.ZSTD
        && effective.dictionary() == null
        && options.trainDictionary()) {
      // Training needs a sample of the whole tree before the first file is compressed.
      List<SourceFile> all = new ArrayList<>();
      sourceDir.walk("", options, skipped, all::add, () -> false);
      all.sort((x, y) -> x.name().compareTo(y.name()));
      listed = all;
      byte[] dictionary = DictionaryTrainer.train(all);
      if (dictionary != null) {
        effective = effective.withDictionary(dictionary);
      }
    }
    try (ArchiveWriter writer = ArchiveWriter.create(target, effective)) {
      long bytes = feedWorkers(writer, sourceDir, "", listed, options, skipped, progress);
      Generation manifest = writer.commit();
      return new Packer.Result(manifest, manifest.liveEntries(), bytes, skipped);
    }
  }

  /**
   * Adds a local tree to an open writer, without committing: entry names are {@code prefix}
   * followed by the paths relative to {@code sourceDir}. Returns the files added and skipped.
   */
  public static Packer.Result addTree(
      ArchiveWriter writer,
      Path sourceDir,
      String prefix,
      Packer.Options options,
      ProgressListener progress)
      throws IOException {
    return addTree(writer, LocalSourceTree.of(sourceDir), prefix, options, progress);
  }

  /** Like {@link #addTree(ArchiveWriter, Path, String, Packer.Options, ProgressListener)}. */
  public static Packer.Result addTree(
      ArchiveWriter writer,
      SourceTree sourceDir,
      String prefix,
      Packer.Options options,
      ProgressListener progress)
      throws IOException {
    List<String> skipped = Collections.synchronizedList(new ArrayList<>());
    long before = writer.pendingEntries();
    long bytes = feedWorkers(writer, sourceDir, prefix, null, options, skipped, progress);
    return new Packer.Result(writer.manifest(), writer.pendingEntries() - before, bytes, skipped);
  }

  /** Lists (or replays {@code listed}) on this thread while workers pack; returns bytes listed. */
  private static long feedWorkers(
      ArchiveWriter writer,
      SourceTree sourceDir,
      String prefix,
      List<SourceFile> listed,
      Packer.Options options,
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
        for (SourceFile source : listed) {
          if (!feed.offer(source)) {
            break;
          }
        }
      } else {
        sourceDir.walk(prefix, options, skipped, feed::offer, feed::failed);
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
   *
   * <p>Sources go in batches of {@link #BATCH}: handing them over one by one woke a thread per
   * file, and the wake-ups took a seventh of a create's CPU (perf on the kernel tree).
   */
  private static final class Feed {
    static final int BATCH = 32;

    /** The end marker: one per worker. */
    private static final List<SourceFile> END =
        java.util.Collections.unmodifiableList(new ArrayList<>());

    private final java.util.concurrent.BlockingQueue<List<SourceFile>> queue =
        new java.util.concurrent.ArrayBlockingQueue<>(128);
    private List<SourceFile> pending = new ArrayList<>(BATCH); // the lister's batch being filled
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

    /** Queues a source (called by the lister only); false once a worker failed. */
    boolean offer(SourceFile source) {
      filesListed.incrementAndGet();
      bytesListed.addAndGet(source.size());
      pending.add(source);
      return pending.size() < BATCH ? !failed() : flush();
    }

    /** Queues the lister's batch; false once a worker failed (the lister should stop). */
    private boolean flush() {
      List<SourceFile> batch = pending;
      pending = new ArrayList<>(BATCH);
      try {
        while (!failed()) {
          if (queue.offer(batch, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            return true;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail(new java.io.InterruptedIOException("interrupted while packing"));
      }
      return false;
    }

    /**
     * Queues the last batch and gives every worker its END; workers drain the queue, so the puts
     * always complete.
     */
    void endOfSources() {
      if (!pending.isEmpty()) {
        flush();
      }
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
        Packer.Options options,
        List<String> skipped,
        ProgressListener progress) {
      // Each worker takes exactly one END, so a worker that failed keeps taking (and skipping)
      // batches until its END: clearing the queue could discard another worker's END.
      for (List<SourceFile> batch = take(); batch != END; batch = take()) {
        for (SourceFile s : batch) {
          if (failed()) {
            break;
          }
          try {
            if (addOne(writer, s, options, skipped)) {
              filesDone.incrementAndGet();
            }
            progress.progress(
                filesDone.get(),
                bytesDone.addAndGet(s.size()),
                listingDone ? filesListed.get() : -1,
                listingDone ? bytesListed.get() : -1);
          } catch (Throwable e) {
            fail(e);
          }
        }
      }
    }

    private List<SourceFile> take() {
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
      ArchiveWriter writer, SourceFile s, Packer.Options options, List<String> skipped)
      throws IOException {
    EntryMetadata meta = new EntryMetadata(s.mtimeMillis(), s.mode(), java.util.Map.of());
    byte[] content = null;
    int length = 0;
    InputStream stream = null;
    try {
      if (s.size() <= writer.options().streamThresholdBytes()) {
        content = READ_BUFFER.get()[0];
        if (content.length < s.size() + 1) {
          content = new byte[(int) Math.max(s.size() + 1, 2L * content.length)];
          READ_BUFFER.get()[0] = content;
        }
        length = s.readInto(content);
      } else {
        stream = s.open();
      }
    } catch (IOException e) {
      String why = whyUnreadable(e);
      if (options.skipUnreadable()) {
        skipped.add(s.describe() + ": cannot read (" + why + ")");
        return false;
      }
      throw new IOException(
          s.describe() + ": cannot read (" + why + "); use --skip-unreadable to skip such files",
          e);
    }
    if (content != null) {
      writer.add(s.name(), content, length, meta);
    } else {
      try (InputStream in = stream) {
        writer.addStream(s.name(), in, s.size(), meta, s.describe());
      }
    }
    return true;
  }

  /** Why a source could not be read, in words (never a class name). */
  static String whyUnreadable(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "vanished while packing";
    }
    return e.getMessage() == null ? "an I/O error" : e.getMessage();
  }

  /**
   * How {@link Packer} reads a source directory.
   *
   * @param threads worker threads reading, compressing and appending (each fills its own part)
   * @param followSymlinks follow symbolic links (a loop is an error); otherwise they are skipped
   *     and listed
   * @param skipUnreadable skip files that cannot be read (listed in the result) instead of failing
   * @param trainDictionary with zstd, train a dictionary on a sample of the files
   */
  public record Options(
      int threads, boolean followSymlinks, boolean skipUnreadable, boolean trainDictionary) {

    public Options {
      if (threads < 1) {
        throw new IllegalArgumentException("threads must be at least 1: " + threads);
      }
    }

    /** Defaults: one thread per core, symlinks skipped, unreadable files fail, dictionary on. */
    public static Options defaults() {
      return new Options(Runtime.getRuntime().availableProcessors(), false, false, true);
    }
  }

  /**
   * What {@link Packer} did.
   *
   * @param manifest the committed manifest
   * @param files entries written
   * @param bytes their content bytes
   * @param skipped sources not packed, each "path: reason" (symlinks, unreadable with the flag,
   *     special files)
   */
  public record Result(Generation manifest, long files, long bytes, List<String> skipped) {
    public Result {
      skipped = List.copyOf(skipped);
    }
  }
}
