package io.hpf.cli;

import io.hpf.archive.ArchiveVerifier;
import io.hpf.archive.VerifyReport;
import io.hpf.archive.VerifyReport.Problem;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "verify",
    description = {
      "Reads every byte of the archive and checks every checksum and every",
      "cross-reference (index, catalog, part files). Lists each problem with its file and",
      "offset. Exit code 0 when intact, 1 when anything is wrong."
    },
    footer = {"", "Examples:", "  hpf verify photos.hpf"},
    mixinStandardHelpOptions = true)
final class VerifyCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Override
  public Integer call() throws Exception {
    VerifyReport report;
    try (Progress progress = new Progress(spec.commandLine().getErr(), "verifying")) {
      report = ArchiveVerifier.verify(storage.open(archive), progress);
    }
    if (report.ok()) {
      spec.commandLine()
          .getOut()
          .println(
              "OK: "
                  + report.entriesChecked()
                  + " entries, "
                  + Format.bytes(report.bytesChecked())
                  + " checked");
      return Main.EXIT_OK;
    }
    var err = spec.commandLine().getErr();
    err.println("hpf: " + archive + ": " + report.problems().size() + " problem(s):");
    for (Problem p : report.problems()) {
      err.println("  " + p.message());
    }
    return Main.EXIT_FAILED;
  }
}
