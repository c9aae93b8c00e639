package io.hpf.cli;

import io.hpf.archive.ArchiveFormat;
import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "extract",
    description = {
      "Extracts every entry into a directory, reading the part files in order on several",
      "threads. Every name is checked first: if one could escape the directory ('..',",
      "absolute paths, drive letters) or breaks the format's rules, nothing is written",
      "unless --skip-unsafe is given (then those are listed, the rest extracted, exit 1).",
      "Files already in DIR are not overwritten unless --overwrite is given: nothing is",
      "written then. A file appears only with content whose checksum held."
    },
    footer = {
      "",
      "Examples:",
      "  hpf extract photos.hpf /tmp/photos",
      "  hpf extract --skip-unsafe --threads 4 downloaded.hpf /tmp/out",
      "  hpf extract --overwrite photos.hpf /tmp/photos      # again, over the files there"
    },
    mixinStandardHelpOptions = true)
final class ExtractCommand implements Callable<Integer> {
  /** Names shown in the error when unsafe names stop an extract. */
  private static final int NAMES_SHOWN = 5;

  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(index = "1", paramLabel = "DIR")
  Path output;

  @Option(names = "--skip-unsafe", description = "Skip and list unsafe names instead of stopping.")
  boolean skipUnsafe;

  @Option(
      names = "--overwrite",
      description = "Replace files DIR already has (by default they stop the extract first).")
  boolean overwrite;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Threads writing files (default: number of cores).")
  Integer threads;

  @Override
  public Integer call() throws Exception {
    boolean emptyBefore = isMissingOrEmpty(output);
    ExtractTarget target = new ExtractTarget(output);
    int skipped;
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive));
        Progress progress = new Progress(spec.commandLine().getErr(), "extracting")) {
      List<String> refused = new ArrayList<>();
      List<EntryInfo> rows = safeRows(reader, target, refused);
      skipped = refused.size();
      if (!overwrite && !emptyBefore) {
        refuseExisting(rows);
      }
      target.makeDirectories(rows.stream().map(EntryInfo::name).toList());
      long total = rows.size();
      AtomicLong files = new AtomicLong();
      AtomicLong bytes = new AtomicLong();
      List<String> damaged = java.util.Collections.synchronizedList(new ArrayList<>());
      runInParallel(
          reader,
          rows,
          threads == null ? Runtime.getRuntime().availableProcessors() : threads,
          (info, content) -> {
            target.write(info, content);
            progress.progress(
                files.incrementAndGet(), bytes.addAndGet(info.rawLength()), total, -1);
          },
          damaged);
      progress.close();
      damaged.sort(null);
      for (String line : damaged) {
        spec.commandLine().getErr().println("hpf: " + line);
      }
      skipped += damaged.size();
      spec.commandLine()
          .getOut()
          .println(
              "extracted "
                  + files.get()
                  + " entries, "
                  + Format.bytes(bytes.get())
                  + " to "
                  + output
                  + (refused.isEmpty() ? "" : "; " + refused.size() + " unsafe names skipped")
                  + (damaged.isEmpty()
                      ? ""
                      : "; " + damaged.size() + " damaged entries not written"));
    }
    return skipped > 0 ? Main.EXIT_FAILED : Main.EXIT_OK;
  }

  private static boolean isMissingOrEmpty(Path dir) throws java.io.IOException {
    if (!java.nio.file.Files.isDirectory(dir)) {
      return true;
    }
    try (var children = java.nio.file.Files.list(dir)) {
      return children.findAny().isEmpty();
    }
  }

  /** Stops, before anything is written, if an entry's file is in the directory already. */
  private void refuseExisting(List<EntryInfo> rows) throws java.io.IOException {
    List<String> there = new ArrayList<>();
    for (EntryInfo row : rows) {
      if (java.nio.file.Files.exists(
          output.resolve(row.name()), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        there.add("'" + ArchiveFormat.shown(row.name()) + "'");
      }
    }
    if (!there.isEmpty()) {
      throw new java.nio.file.FileAlreadyExistsException(
          output
              + ": "
              + Format.count(there.size(), "file", "files")
              + " already there, such as "
              + String.join(", ", there.subList(0, Math.min(NAMES_SHOWN, there.size())))
              + "; nothing was written (--overwrite replaces them)");
    }
  }

  /**
   * The entries in part order whose names are safe to write under the target; the others are added
   * to {@code refused}, told as skipped with --skip-unsafe, else refused before anything is
   * written.
   */
  private List<EntryInfo> safeRows(ArchiveReader reader, ExtractTarget target, List<String> refused)
      throws IOException {
    List<EntryInfo> rows = new ArrayList<>();
    for (EntryInfo row : reader.entriesInPartOrder()) {
      String why = target.refusal(row.name());
      if (why == null) {
        rows.add(row);
      } else {
        refused.add("'" + ArchiveFormat.shown(row.name()) + "' (" + why + ")");
      }
    }
    // An entry that is also a directory of others (d/x beside d/x/y: writers refuse it, older
    // archives may hold it) cannot be both on disk.
    java.util.Set<String> directories =
        ExtractTarget.parents(rows.stream().map(EntryInfo::name).toList());
    rows.removeIf(
        row ->
            directories.contains(row.name())
                && refused.add("'" + row.name() + "' (it is also a directory of other entries)"));
    if (!refused.isEmpty() && !skipUnsafe) {
      throw new IOException(
          archive
              + ": refusing to extract "
              + refused.size()
              + " unsafe names, such as "
              + String.join(", ", refused.subList(0, Math.min(NAMES_SHOWN, refused.size())))
              + "; nothing was written (--skip-unsafe extracts the rest)");
    }
    for (String name : refused) {
      spec.commandLine().getErr().println("hpf: skipped unsafe name " + name);
    }
    return rows;
  }

  /**
   * Scans {@code run}, going on past a damaged entry as unzip does: the entry (every member of a
   * damaged group) is named in {@code damaged} with the place and the rule broken, and the scan
   * starts again at the next entry. Any other failure (a full disk) stops it.
   */
  private static void salvage(
      ArchiveReader reader,
      List<EntryInfo> run,
      io.hpf.archive.ArchiveReader.EntryVisitor visitor,
      List<String> damaged)
      throws IOException {
    int next = 0;
    while (next < run.size()) {
      int[] visited = {next};
      try {
        reader.scan(
            run.subList(next, run.size()),
            (info, content) -> {
              visitor.visit(info, content);
              visited[0]++;
            });
        return;
      } catch (CorruptArchiveException e) {
        EntryInfo bad = run.get(visited[0]);
        next = visited[0];
        while (next < run.size()
            && run.get(next).partId() == bad.partId()
            && run.get(next).offset() == bad.offset()) {
          damaged.add(damaged(run.get(next++).name(), e)); // a group's members share its place
        }
      }
    }
  }

  /** What is said of an entry that could not be written because it is damaged. */
  static String damaged(String name, CorruptArchiveException e) {
    return "'" + name + "' is damaged, not written: " + e.getMessage();
  }

  /**
   * Scans {@code rows} (in part order) on {@code threads} threads, each taking a contiguous run of
   * about the same bytes, so each reads its parts sequentially. The first failure stops the rest
   * and is thrown.
   */
  static void runInParallel(
      ArchiveReader reader,
      List<EntryInfo> rows,
      int threads,
      io.hpf.archive.ArchiveReader.EntryVisitor visitor,
      List<String> damaged)
      throws IOException, InterruptedException {
    List<List<EntryInfo>> runs =
        runsOfEqualBytes(rows, Math.max(1, Math.min(threads, rows.size())));
    AtomicReference<Exception> failure = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(runs.size());
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (List<EntryInfo> run : runs) {
        futures.add(
            pool.submit(
                () -> {
                  try {
                    salvage(
                        reader,
                        run,
                        (info, content) -> {
                          if (failure.get() != null) {
                            throw new CancellationException(); // another run failed: stop
                          }
                          visitor.visit(info, content);
                        },
                        damaged);
                  } catch (CancellationException e) {
                    // stopped because of the failure recorded by another run
                  } catch (IOException | RuntimeException e) {
                    failure.compareAndSet(null, e);
                  }
                }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          failure.compareAndSet(null, new IOException(e.getCause().getMessage(), e.getCause()));
        }
      }
      Exception first = failure.get();
      if (first instanceof IOException io) {
        throw io;
      }
      if (first instanceof RuntimeException re) {
        throw re;
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** {@code rows} cut into {@code n} contiguous runs of about the same entry bytes. */
  private static List<List<EntryInfo>> runsOfEqualBytes(List<EntryInfo> rows, int n) {
    long totalBytes = rows.stream().mapToLong(EntryInfo::entryLength).sum();
    List<List<EntryInfo>> runs = new ArrayList<>();
    int start = 0;
    long bytes = 0;
    for (int i = 0; i < rows.size(); i++) {
      bytes += rows.get(i).entryLength();
      if (bytes * n >= totalBytes * (runs.size() + 1) && runs.size() < n - 1) {
        runs.add(rows.subList(start, i + 1));
        start = i + 1;
      }
    }
    runs.add(rows.subList(start, rows.size()));
    return runs;
  }
}
