package io.hpf.cli;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Generation;
import io.hpf.store.Storage;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "rm",
    description = {
      "Deletes entries, as one commit. A name the archive does not have is an",
      "error and nothing is deleted. The space is freed by compaction (see 'compact')."
    },
    footer = {
      "",
      "Examples:",
      "  hpf rm photos.hpf 2024/01/cat.jpg",
      "  hpf rm --prefix tmp/ photos.hpf"
    },
    mixinStandardHelpOptions = true)
final class RmCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WriterFlags flags;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "NAME")
  List<String> names;

  @Option(names = "--prefix", paramLabel = "P", description = "Delete every entry under P.")
  String prefix;

  @Override
  public Integer call() throws Exception {
    boolean noNames = names == null || names.isEmpty();
    if (noNames && prefix == null) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "which entries? give their names, or --prefix P");
    }
    if (!noNames && prefix != null) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "give entry names or --prefix, not both");
    }
    int count;
    Generation manifest;
    try (Storage target = flags.storage.openForWriting(archive, flags.hdfs);
        ArchiveWriter writer = flags.open(target, flags.builder().build(), spec)) {
      if (prefix != null) {
        count = writer.deletePrefix(prefix);
      } else {
        for (String name : names) {
          writer.delete(name);
        }
        count = names.size();
      }
      manifest = writer.commit();
    }
    spec.commandLine()
        .getOut()
        .println(
            "deleted "
                + Format.count(count, "entry", "entries")
                + " from "
                + archive
                + ": generation "
                + manifest.generation()
                + ", "
                + Format.count(manifest.liveEntries(), "entry", "entries")
                + " left");
    return Main.EXIT_OK;
  }
}
