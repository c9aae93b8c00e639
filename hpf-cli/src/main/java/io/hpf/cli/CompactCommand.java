package io.hpf.cli;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.CompactionResult;
import io.hpf.store.Storage;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "compact",
    description = {
      "Merges all segments into one (index only: content stays where it is).",
      "With --reclaim, also copies the live entries into new part files, freeing the space",
      "of deleted and replaced ones. Readers keep reading throughout."
    },
    footer = {"", "Examples:", "  hpf compact photos.hpf", "  hpf compact --reclaim photos.hpf"},
    mixinStandardHelpOptions = true)
final class CompactCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WriterFlags flags;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Option(names = "--reclaim", description = "Rewrite content to free dead space.")
  boolean reclaim;

  @Override
  public Integer call() throws Exception {
    CompactionResult result;
    try (Storage target = flags.storage.openForWriting(archive, flags.hdfs);
        ArchiveWriter writer = flags.open(target, flags.builder().build(), spec)) {
      result = writer.compact(reclaim);
    }
    if (result.segmentsBefore() == result.segmentsAfter() && !result.reclaimed()) {
      spec.commandLine()
          .getOut()
          .println(
              archive
                  + ": nothing to compact ("
                  + result.segmentsBefore()
                  + (result.segmentsBefore() == 1 ? " segment" : " segments")
                  + (reclaim ? ", no dead bytes" : "")
                  + "); nothing committed");
      return Main.EXIT_OK;
    }
    spec.commandLine()
        .getOut()
        .println(
            "compacted "
                + archive
                + ": "
                + result.segmentsBefore()
                + " segment(s) to "
                + result.segmentsAfter()
                + (result.reclaimed()
                    ? ", " + Format.bytes(result.bytesReclaimed()) + " reclaimed"
                    : ""));
    return Main.EXIT_OK;
  }
}
