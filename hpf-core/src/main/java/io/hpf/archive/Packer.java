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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Packs a local directory tree into a new archive: lists it, optionally trains a zstd dictionary on
 * a sample, then reads, compresses and appends files on several threads (each with its own part
 * file) and commits once. Entry names are the paths relative to the source, with '/'.
 */
public final class Packer {
  private record Source(String name, Path path, long size, long mtimeMillis) {}

  private Packer() {}

  public static PackResult pack(
      Path sourceDir,
      Storage target,
      WriterOptions writerOptions,
      PackOptions options,
      ProgressListener progress)
      throws IOException {
    if (!Files.isDirectory(sourceDir)) {
      throw new NoSuchFileException(sourceDir + ": not a directory");
    }
    List<String> skipped = Collections.synchronizedList(new ArrayList<>());
    List<Source> sources = list(sourceDir, options, skipped);
    long totalBytes = sources.stream().mapToLong(Source::size).sum();
    WriterOptions effective = writerOptions;
    if (writerOptions.codec() == Codec.ZSTD
        && writerOptions.dictionary() == null
        && options.trainDictionary()) {
      byte[] dictionary = DictionaryTrainer.train(sources.stream().map(Source::path).toList());
      if (dictionary != null) {
        effective =
            new WriterOptions(
                writerOptions.codec(),
                dictionary,
                writerOptions.bucketCapacity(),
                writerOptions.maxPartBytes(),
                writerOptions.streamThresholdBytes());
      }
    }
    try (ArchiveWriter writer = ArchiveWriter.create(target, effective)) {
      AtomicInteger next = new AtomicInteger();
      AtomicLong filesDone = new AtomicLong();
      AtomicLong bytesDone = new AtomicLong();
      ExecutorService pool =
          Executors.newFixedThreadPool(
              options.threads(),
              r -> {
                Thread t = new Thread(r, "hpf-pack");
                t.setDaemon(true);
                return t;
              });
      try {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < options.threads(); t++) {
          workers.add(
              pool.submit(
                  () -> {
                    for (int i = next.getAndIncrement();
                        i < sources.size();
                        i = next.getAndIncrement()) {
                      Source s = sources.get(i);
                      if (addOne(writer, s, options, skipped)) {
                        filesDone.incrementAndGet();
                      }
                      progress.progress(
                          filesDone.get(), bytesDone.addAndGet(s.size), sources.size(), totalBytes);
                    }
                    return null;
                  }));
        }
        for (Future<?> worker : workers) {
          awaitWorker(worker, next, sources.size());
        }
      } finally {
        pool.shutdownNow();
      }
      Manifest manifest = writer.commit();
      long bytes = sources.stream().mapToLong(Source::size).sum();
      return new PackResult(manifest, manifest.entryCount(), bytes, skipped);
    }
  }

  private static void awaitWorker(Future<?> worker, AtomicInteger next, int total)
      throws IOException {
    try {
      worker.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      next.set(total);
      throw new java.io.InterruptedIOException("interrupted while packing");
    } catch (java.util.concurrent.ExecutionException e) {
      next.set(total); // stop the other workers
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(cause);
    }
  }

  /**
   * Adds one file; false if it could not be read and the options say to skip such files. Errors
   * reading the source are told apart from errors writing the archive, which always fail.
   */
  private static boolean addOne(
      ArchiveWriter writer, Source s, PackOptions options, List<String> skipped)
      throws IOException {
    EntryMetadata meta;
    byte[] content = null;
    InputStream stream = null;
    try {
      meta = new EntryMetadata(s.mtimeMillis, posixMode(s.path), java.util.Map.of());
      if (s.size <= writer.options().streamThresholdBytes()) {
        content = Files.readAllBytes(s.path);
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
      writer.add(s.name, content, meta);
    } else {
      try (InputStream in = stream) {
        writer.addStream(s.name, in, s.size, meta, s.path.toString());
      }
    }
    return true;
  }

  private static int posixMode(Path path) throws IOException {
    try {
      Object mode = Files.getAttribute(path, "unix:mode");
      return ((Integer) mode) & 07777;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return EntryMetadata.DEFAULT_MODE;
    }
  }

  private static List<Source> list(Path root, PackOptions options, List<String> skipped)
      throws IOException {
    List<Source> sources = new ArrayList<>();
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
              sources.add(
                  new Source(
                      entryName(root, file),
                      file,
                      attrs.size(),
                      attrs.lastModifiedTime().toMillis()));
            }
            return FileVisitResult.CONTINUE;
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
    sources.sort((a, b) -> a.name.compareTo(b.name));
    return sources;
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
