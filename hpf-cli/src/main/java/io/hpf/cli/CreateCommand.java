package io.hpf.cli;

import io.hpf.archive.model.WriterOptions;
import io.hpf.hadoop.StorageLocator;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "create",
    description = {
      "Packs a directory tree into a new archive.",
      "Entry names are paths relative to SOURCE, with '/'. Files are read, compressed and",
      "appended by several threads at once; nothing is visible until the final commit.",
      "Symbolic links are skipped (and listed) unless --follow-symlinks is given."
    },
    footer = {
      "",
      "Examples:",
      "  hpf create photos.hpf /data/photos",
      "  hpf create --overwrite photos.hpf /data/photos   # replaces the archive there",
      "  hpf create --codec lz4 --threads 8 logs.hpf /var/log/app",
      "  hpf create --skip-unreadable --follow-symlinks home.hpf /home/me",
      "  hpf create hdfs://127.0.0.1:9000/data/logs.hpf /var/log/app",
      "  hpf create -D dfs.replication=1 hdfs://nn:8020/a/logs.hpf hdfs://nn:8020/incoming/"
    },
    mixinStandardHelpOptions = true)
final class CreateCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "ARCHIVE",
      description = "The archive directory to create (must not exist or be empty).")
  String archive;

  @Parameters(
      index = "1",
      paramLabel = "SOURCE",
      description = "The directory to pack: a local path or a file system URI (hdfs://...).")
  String source;

  @picocli.CommandLine.Mixin HdfsWriteFlags hdfs;

  @picocli.CommandLine.Mixin PackFlags pack;

  @Option(
      names = "--no-dictionary",
      description = "With zstd, do not train a dictionary on a sample of the files.")
  boolean noDictionary;

  @Option(
      names = "--bucket-capacity",
      paramLabel = "RECORDS",
      defaultValue = "" + WriterOptions.DEFAULT_BUCKET_CAPACITY,
      description = "Most records in one index bucket file (default: ${DEFAULT-VALUE}).")
  int bucketCapacity;

  @Option(
      names = {"-v", "--verbose"},
      description = "List every skipped file, not just the first 20.")
  boolean verbose;

  private static final int SKIPPED_SHOWN = 20;

  @picocli.CommandLine.Mixin PartSizeFlag partSize;

  @Option(
      names = "--overwrite",
      description =
          "Replace an archive already at ARCHIVE (local disk): the new one is packed beside it and"
              + " renamed over it once complete; a directory that is not an archive is refused.")
  boolean overwrite;

  @Override
  public Integer call() throws Exception {
    if (!Charset.defaultCharset().name().equals("UTF-8")
        && !"UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding"))) {
      throw new IllegalStateException(
          "file names are decoded as "
              + System.getProperty("sun.jnu.encoding")
              + "; run with a UTF-8 locale (LC_ALL=C.UTF-8)");
    }
    StorageLocator locator = storage.locator(hdfs.options());
    SourceTree tree = locator.sourceTree(source, archive); // never the archive itself
    WriterOptions options =
        pack.apply(WriterOptions.builder())
            .bucketCapacity(bucketCapacity)
            .maxPartBytes(partSize.bytes())
            .build();
    Path localTarget = LocalStorage.isLocal(archive) ? LocalStorage.localPath(archive) : null;
    if (!overwrite && localTarget != null && Overwrite.isArchive(localTarget)) {
      throw new java.nio.file.FileAlreadyExistsException(
          archive + ": already an archive (create --overwrite replaces it; hpf add adds to it)");
    }
    Overwrite replacing = overwrite ? Overwrite.of(archive, localTarget) : null;
    String packedAt = replacing != null ? replacing.staging().toString() : archive;
    boolean existed = localTarget == null || Files.exists(localTarget);
    long start = System.nanoTime();
    Packer.Result result;
    try (Storage target = locator.createArchive(packedAt);
        Progress progress = new Progress(spec.commandLine().getErr(), "packing")) {
      result = Packer.pack(tree, target, options, pack.options(!noDictionary), progress);
    } catch (Exception e) {
      if (replacing != null) {
        replacing.abandon();
      } else if (!existed) {
        deleteIfEmpty(localTarget);
      }
      throw e;
    }
    if (replacing != null) {
      replacing.commit();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long stored = result.manifest().partBytes();
    var out = spec.commandLine().getOut();
    out.printf(
        Locale.ROOT,
        "created %s: %s, %s into %s of part files (%.1f%%), %.2f s%n",
        archive,
        Format.count(result.files(), "entry", "entries"),
        Format.bytes(result.bytes()),
        Format.bytes(stored),
        result.bytes() == 0 ? 100.0 : 100.0 * stored / result.bytes(),
        seconds);
    printSkipped(spec, result.skipped(), verbose);
    return Main.EXIT_OK;
  }

  /** Lists skipped sources on standard error: the first 20, or all with --verbose. */
  static void printSkipped(CommandSpec spec, java.util.List<String> skipped, boolean verbose) {
    if (skipped.isEmpty()) {
      return;
    }
    var err = spec.commandLine().getErr();
    err.println("skipped " + skipped.size() + ":");
    int shown = verbose ? skipped.size() : Math.min(SKIPPED_SHOWN, skipped.size());
    for (String s : skipped.subList(0, shown)) {
      err.println("  " + s);
    }
    if (shown < skipped.size()) {
      err.println("  ... and " + (skipped.size() - shown) + " more (--verbose lists all)");
    }
  }

  private static void deleteIfEmpty(Path dir) {
    try (var files = Files.list(dir)) {
      if (files.findAny().isEmpty()) {
        Files.delete(dir);
      }
    } catch (java.io.IOException e) {
      // Leave it; the error that got us here is the one to report.
    }
  }
}
