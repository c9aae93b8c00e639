package io.hpf.cli;

import io.hpf.archive.ArchiveReader;
import io.hpf.archive.EntryJson;
import io.hpf.archive.model.Generation;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "log",
    description = {
      "Lists the archive's latest commits (up to 100): generation, time, what was",
      "done, and the entry count after it."
    },
    footer = {"", "Examples:", "  hpf log photos.hpf", "  hpf log --json photos.hpf"},
    mixinStandardHelpOptions = true)
final class LogCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Option(names = "--json", description = "One JSON object per line.")
  boolean json;

  private static final java.time.format.DateTimeFormatter TIME =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(java.time.ZoneOffset.UTC);

  @Override
  public Integer call() throws Exception {
    var out = spec.commandLine().getOut();
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive))) {
      for (Generation.Change h : reader.manifest().history()) {
        if (json) {
          out.printf(
              Locale.ROOT,
              "{\"generation\":%d,\"time\":%d,\"operation\":%s,\"entries\":%d}%n",
              h.generation(),
              h.commitMillis(),
              EntryJson.string(h.operation()),
              h.liveEntries());
        } else {
          // Fixed-width columns first (the time always with its milliseconds), the operation,
          // of any length, last: the columns line up whatever the operation says.
          out.printf(
              Locale.ROOT,
              "%6d  %s  %16s  %s%n",
              h.generation(),
              TIME.format(Instant.ofEpochMilli(h.commitMillis())),
              Format.count(h.liveEntries(), "entry", "entries"),
              h.operation());
        }
      }
    }
    return Main.EXIT_OK;
  }
}
