package io.hpf.cli;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.Generation;
import io.hpf.archive.model.RecoveryResult;
import io.hpf.store.Storage;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "recover",
    description = {
      "Finishes what a writer that died left: keeps every complete entry whose",
      "checksums hold from its uncommitted part files (unless the name is already committed),",
      "drops the rest, removes half-written index files, and commits. Every writer does this",
      "by itself when it opens; this command does only that. A dead writer's lock stays until",
      "broken with --break-lock."
    },
    footer = {"", "Examples:", "  hpf recover --break-lock photos.hpf"},
    mixinStandardHelpOptions = true)
final class RecoverCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WriterFlags flags;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Override
  public Integer call() throws Exception {
    try (Storage target = flags.storage.openForWriting(archive, flags.hdfs);
        ArchiveWriter writer = ArchiveWriter.open(target, flags.builder().build())) {
      RecoveryResult r = writer.recovery();
      tellLockTaken(spec, r);
      if (r.damagedParts() > 0) {
        spec.commandLine()
            .getErr()
            .println(
                "hpf: "
                    + archive
                    + ": "
                    + r.damagedParts()
                    + (r.damagedParts() == 1 ? " committed part file" : " committed part files")
                    + " missing or cut short: their entries are lost (hpf verify names them)");
        r.notes().forEach(n -> spec.commandLine().getErr().println("  " + n));
        return Main.EXIT_FAILED;
      }
      if (!r.foundAnything()) {
        spec.commandLine()
            .getOut()
            .println(
                archive
                    + ": nothing to recover (generation "
                    + writer.manifest().generation()
                    + lastRecovery(writer.manifest())
                    + ")");
      } else {
        spec.commandLine()
            .getOut()
            .println(
                archive
                    + ": "
                    + r.entriesRecovered()
                    + " entries recovered, "
                    + r.entriesDropped()
                    + " dropped, "
                    + r.bytesDropped()
                    + " bytes of incomplete tails discarded, "
                    + Format.count(r.filesRemoved(), "file", "files")
                    + " removed");
        r.notes().forEach(n -> spec.commandLine().getOut().println("  " + n));
      }
    }
    return Main.EXIT_OK;
  }

  /**
   * The latest recovery the history records ("; generation 4 recovered 2 entries at TIME"), which
   * another command's writer may have made on opening; empty if none.
   */
  private static String lastRecovery(Generation manifest) {
    String found = "";
    for (io.hpf.archive.model.Generation.Change h : manifest.history()) {
      if (h.operation().startsWith("recover ")) {
        found =
            "; generation "
                + h.generation()
                + " recovered "
                + h.operation().substring("recover ".length())
                + " at "
                + java.time.Instant.ofEpochMilli(h.commitMillis())
                + " (hpf log)";
      }
    }
    return found;
  }

  /** Tells on standard error what opening a writer recovered, if anything. */
  static void report(CommandSpec spec, RecoveryResult r) {
    tellLockTaken(spec, r);
    if (r.foundAnything()) {
      spec.commandLine()
          .getErr()
          .println(
              "hpf: recovered after a writer that died: "
                  + r.entriesRecovered()
                  + " entries kept, "
                  + r.entriesDropped()
                  + " dropped, "
                  + Format.count(r.filesRemoved(), "file", "files")
                  + " removed");
    }
  }

  /** One line when this writer took over the lock of a writer of this host that died. */
  private static void tellLockTaken(CommandSpec spec, RecoveryResult r) {
    if (r.lockTakenFrom() != null) {
      spec.commandLine()
          .getErr()
          .println(
              "hpf: took over the lock of a writer that died ("
                  + r.lockTakenFrom()
                  + "); what it left is recovered as on any open");
    }
  }
}
