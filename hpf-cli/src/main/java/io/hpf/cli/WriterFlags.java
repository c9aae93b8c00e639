package io.hpf.cli;

import io.hpf.archive.WriterOptions;
import io.hpf.format.Codec;
import picocli.CommandLine.Option;

/** Options shared by the commands that change an archive (a picocli mixin). */
final class WriterFlags {
  @Option(
      names = "--break-lock",
      description = "Take over the lock of a writer that is gone (check it is, first).")
  boolean breakLock;

  @Option(
      names = "--max-segments",
      paramLabel = "N",
      defaultValue = "8",
      description =
          "Compaction after a commit keeps at most N segments (default: ${DEFAULT-VALUE}).")
  int maxSegments;

  @Option(
      names = "--reclaim-ratio",
      paramLabel = "R",
      defaultValue = "0.5",
      description =
          "Rewrite content when this share of part bytes is dead (default: ${DEFAULT-VALUE}).")
  double reclaimRatio;

  @Option(
      names = "--grace",
      paramLabel = "SECONDS",
      defaultValue = "900",
      description =
          "Keep files of older generations this long for open readers (default: ${DEFAULT-VALUE}).")
  long graceSeconds;

  WriterOptions.Builder builder(Codec codec) {
    return WriterOptions.builder()
        .codec(codec)
        .breakLock(breakLock)
        .maxSegments(maxSegments)
        .reclaimRatio(reclaimRatio)
        .gracePeriodMillis(graceSeconds * 1000);
  }
}
