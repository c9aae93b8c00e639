package io.hpf.cli;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.model.CorruptArchiveException;
import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.EntryNotFoundException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "get",
    description = {
      "Extracts the named entries into a directory, keeping their paths, times and",
      "permissions. Names that are not found are reported and make the exit code 1; the",
      "others are still extracted."
    },
    footer = {"", "Examples:", "  hpf get photos.hpf 2024/01/cat.jpg 2024/01/dog.jpg -o /tmp/out"},
    mixinStandardHelpOptions = true)
final class GetCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME")
  List<String> names;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      defaultValue = ".",
      description = "Directory to write into (default: the current directory).")
  Path output;

  @Override
  public Integer call() throws Exception {
    int code = Main.EXIT_OK;
    ExtractTarget target = new ExtractTarget(output);
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive))) {
      for (String name : names) {
        try {
          EntryInfo info = reader.stat(name); // a member's lookup decodes its group
          if (info == null) {
            spec.commandLine()
                .getErr()
                .println("hpf: " + new EntryNotFoundException(archive, name).getMessage());
            code = Main.EXIT_FAILED;
            continue;
          }
          try (InputStream in = reader.openStream(name)) {
            target.writeWithParents(info, in);
          }
        } catch (CorruptArchiveException damaged) { // the others are still written (as unzip)
          spec.commandLine().getErr().println("hpf: " + ExtractCommand.damaged(name, damaged));
          code = Main.EXIT_FAILED;
        }
      }
    }
    return code;
  }
}
