package io.hpf.cli;

import io.hpf.archive.ArchiveReader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
    name = "extract",
    description = {
      "Extracts every entry into a directory, reading the part files in order.",
      "Names that could escape the directory ('..', absolute paths) are refused; each file",
      "appears only once its content was read whole and its checksum held."
    },
    footer = {"", "Examples:", "  hpf extract photos.hpf /tmp/photos"},
    mixinStandardHelpOptions = true)
final class ExtractCommand implements Callable<Integer> {
  @picocli.CommandLine.Mixin StorageFlags storage;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "ARCHIVE")
  String archive;

  @Parameters(index = "1", paramLabel = "DIR")
  Path output;

  @Override
  public Integer call() throws Exception {
    ExtractTarget target = new ExtractTarget(output);
    AtomicLong files = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    try (ArchiveReader reader = ArchiveReader.open(storage.open(archive));
        Progress progress = new Progress(spec.commandLine().getErr(), "extracting")) {
      long total = reader.entryCount();
      reader.scan(
          (info, content) -> {
            target.write(info, content);
            progress.progress(
                files.incrementAndGet(), bytes.addAndGet(info.rawLength()), total, -1);
          });
    }
    spec.commandLine()
        .getOut()
        .println(
            "extracted "
                + files.get()
                + " entries, "
                + Format.bytes(bytes.get())
                + " to "
                + output);
    return Main.EXIT_OK;
  }
}
