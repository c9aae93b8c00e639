package io.hpf.cli;

import io.hpf.archive.ArchiveReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "cat",
    description = {
      "Writes the content of entries to standard output, byte for byte.",
      "Content is checked against its CRC32C; a damaged entry is an error, never wrong bytes",
      "(entries over 1 MiB stream in bounded memory, each chunk checked before it is written,",
      "and the whole content's CRC32C at the end)."
    },
    footer = {
      "",
      "Examples:",
      "  hpf cat photos.hpf 2024/01/cat.jpg > cat.jpg",
      "  hpf cat logs.hpf app/a.log app/b.log | grep ERROR"
    },
    mixinStandardHelpOptions = true)
final class CatCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  private final OutputStream stdout;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "NAME")
  java.util.List<String> names;

  CatCommand(OutputStream stdout) {
    this.stdout = stdout;
  }

  /**
   * The command of {@code cat ARCHIVE NAME...} when that is all the line says (no option, no
   * {@code @file}), set up without picocli: building picocli's model of a command by reflection
   * takes about 90 ms, most of a one-shot read's start-up, and this is the form scripts run in
   * loops. Null for any other line, which picocli parses as before (its help, its errors).
   */
  static CatCommand ofPlainLine(String[] args, OutputStream stdout) {
    if (args.length < 3 || !args[0].equals("cat")) {
      return null;
    }
    for (String arg : args) {
      if (arg.isEmpty() || arg.startsWith("-") || arg.startsWith("@")) {
        return null;
      }
    }
    CatCommand command = new CatCommand(stdout);
    command.storage = new StorageFlags();
    command.archive = args[1];
    command.names = java.util.List.of(args).subList(2, args.length);
    return command;
  }

  @Override
  public Integer call() throws Exception {
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive))) {
      for (String name : names) {
        try (InputStream in = reader.openStream(name)) {
          in.transferTo(stdout);
        }
      }
    }
    stdout.flush();
    return Main.EXIT_OK;
  }
}
