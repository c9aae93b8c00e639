package io.hpf.cli;

import io.hpf.archive.model.WriterOptions;
import picocli.CommandLine.Option;

/**
 * {@code --part-size}, for the commands that write part files (a picocli mixin): with {@code
 * --block-size}, how an archive of billions of entries keeps to a few NameNode objects
 * (docs/HADOOP.md).
 */
final class PartSizeFlag {
  @Option(
      names = "--part-size",
      paramLabel = "MiB",
      defaultValue = "" + (WriterOptions.DEFAULT_MAX_PART_BYTES >> 20),
      description = "Start a new part file after this many MiB (default: ${DEFAULT-VALUE}).")
  long partSizeMiB;

  long bytes() {
    return partSizeMiB << 20;
  }
}
