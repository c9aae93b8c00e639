package io.hpf.cli;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryJson;
import io.hpf.archive.model.EntryInfo;
import java.time.Instant;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "ls",
    description = {
      "Lists entries in name order (UTF-8 byte order), optionally only those under a prefix.",
      "Reads only the catalog blocks that hold the listed names."
    },
    footer = {
      "",
      "Examples:",
      "  hpf ls photos.hpf",
      "  hpf ls -l photos.hpf 2024/01/",
      "  hpf ls --json photos.hpf logs/ | jq .length"
    },
    mixinStandardHelpOptions = true)
final class LsCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(
      index = "1",
      paramLabel = "PREFIX",
      defaultValue = "",
      arity = "0..1",
      description = "Only names starting with this (plain string prefix, not a glob).")
  String prefix;

  @Option(
      names = {"-l", "--long"},
      description = "Show size, stored size, codec, mode and time.")
  boolean longFormat;

  @Option(names = "--json", description = "One JSON object per line.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    var out = spec.commandLine().getOut();
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive))) {
      Iterator<EntryInfo> it = reader.list(prefix);
      while (it.hasNext()) {
        EntryInfo e = it.next();
        if (json) {
          out.println(toJson(e));
        } else if (longFormat) {
          out.printf(
              Locale.ROOT,
              "%12d %12d %-4s %04o %s %s%n",
              e.rawLength(),
              e.storedLength(),
              e.codec().displayName(),
              e.mode(),
              Instant.ofEpochMilli(e.mtimeMillis()),
              e.name());
        } else {
          out.println(e.name());
        }
      }
    }
    return Main.EXIT_OK;
  }

  static String toJson(EntryInfo e) {
    return EntryJson.row(new StringBuilder(), e, true).toString();
  }
}
