package io.hpf.cli;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.EntryMetadata;
import io.hpf.archive.model.Generation;
import io.hpf.pack.LocalSourceTree;
import io.hpf.pack.Packer;
import io.hpf.pack.SourceTree;
import io.hpf.store.LocalStorage;
import io.hpf.store.Storage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "add",
    description = {
      "Adds files to an existing archive as one commit (work proportional to what is added).",
      "A directory adds its files named by their paths relative to it; a file is named by its",
      "file name. --prefix puts them under a prefix. A name the archive has is an error unless",
      "--replace is given; nothing is committed then."
    },
    footer = {
      "",
      "Examples:",
      "  hpf add logs.hpf /var/log/app/2024-11-22",
      "  hpf add --prefix 2024/11/22/ logs.hpf /var/log/app/today",
      "  hpf add --replace photos.hpf /tmp/fixed/cat.jpg"
    },
    mixinStandardHelpOptions = true)
final class AddCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WriterFlags flags;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(
      index = "1..*",
      arity = "1..*",
      paramLabel = "PATH",
      description = "Local files or directories, or directories of a file system URI (hdfs://...).")
  List<String> paths;

  @Option(names = "--replace", description = "Replace entries whose names exist.")
  boolean replace;

  @Option(
      names = {"-v", "--verbose"},
      description = "List every skipped file, not just the first 20.")
  boolean verbose;

  @Option(
      names = "--prefix",
      paramLabel = "P",
      defaultValue = "",
      description = "Put the added names under this prefix (e.g. 2024/11/).")
  String prefix;

  @picocli.CommandLine.Mixin PackFlags packFlags;

  @Override
  public Integer call() throws Exception {
    long start = System.nanoTime();
    Packer.Options pack = packFlags.options(false);
    List<String> skipped = new ArrayList<>();
    long added = 0;
    Generation manifest;
    try (Storage target = flags.storage.openForWriting(archive, flags.hdfs);
        ArchiveWriter writer =
            flags.open(target, packFlags.apply(flags.builder()).replace(replace).build(), spec);
        Progress progress = new Progress(spec.commandLine().getErr(), "adding")) {
      for (String location : paths) {
        Path path = LocalStorage.isLocal(location) ? LocalStorage.localPath(location) : null;
        if (path == null || Files.isDirectory(path)) {
          // A tree holding the archive itself leaves it out.
          SourceTree tree = flags.storage.sourceTree(location, archive);
          Packer.Result result = Packer.addTree(writer, tree, prefix, pack, progress);
          added += result.files();
          skipped.addAll(result.skipped());
        } else if (Files.isRegularFile(path)) {
          writer.addFile(
              prefix + path.getFileName(),
              path,
              new EntryMetadata(
                  Files.getLastModifiedTime(path).toMillis(),
                  LocalSourceTree.modeOf(path),
                  java.util.Map.of()));
          added++;
        } else {
          throw new java.nio.file.NoSuchFileException(path.toString()); // said with its reason
        }
      }
      manifest = writer.commit();
    }
    spec.commandLine()
        .getOut()
        .printf(
            Locale.ROOT,
            "added %d entries to %s: generation %d, %d entries, %d segment(s), %.2f s%n",
            added,
            archive,
            manifest.generation(),
            manifest.liveEntries(),
            manifest.segmentCount(),
            (System.nanoTime() - start) / 1e9);
    CreateCommand.printSkipped(spec, skipped, verbose);
    return Main.EXIT_OK;
  }
}
