package io.hpf.cli;

import io.hpf.archive.ArchiveWriter;
import io.hpf.archive.model.WriterOptions;
import io.hpf.store.Storage;
import java.io.IOException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * Options shared by the commands that change an archive (a picocli mixin): where it is ({@link
 * StorageFlags}), how HDFS stores what is written ({@link HdfsWriteFlags}) and the writer's own.
 * Defaults are the core's constants.
 */
final class WriterFlags {
  @Mixin StorageFlags storage;

  @Mixin HdfsWriteFlags hdfs;

  @Mixin PartSizeFlag partSize;

  @Option(
      names = "--break-lock",
      description = "Take over the lock of a writer that is gone (check it is, first).")
  boolean breakLock;

  @Option(
      names = "--max-segments",
      paramLabel = "N",
      defaultValue = "" + WriterOptions.DEFAULT_MAX_SEGMENTS,
      description =
          "Compaction after a commit keeps at most N segments (default: ${DEFAULT-VALUE}).")
  int maxSegments;

  @Option(
      names = "--reclaim-ratio",
      paramLabel = "R",
      defaultValue = "" + WriterOptions.DEFAULT_RECLAIM_RATIO,
      description =
          "Rewrite content when this share of part bytes is dead (default: ${DEFAULT-VALUE}).")
  double reclaimRatio;

  @Option(
      names = "--grace",
      paramLabel = "SECONDS",
      defaultValue = "" + WriterOptions.DEFAULT_GRACE_PERIOD_MILLIS / 1000,
      description =
          "Keep files of older generations this long for open readers (default: ${DEFAULT-VALUE}).")
  long graceSeconds;

  @Option(
      names = "--bucket-capacity",
      paramLabel = "RECORDS",
      description =
          "Most records in one index bucket file of new segments (default: the archive's).")
  Integer bucketCapacity; // null: the archive's

  /**
   * Opens the archive's one writer (it recovers what a writer that died left), tells the user what
   * recovery did and which archive settings these flags change.
   */
  ArchiveWriter open(Storage target, WriterOptions options, CommandSpec spec) throws IOException {
    ArchiveWriter writer = ArchiveWriter.open(target, options);
    RecoverCommand.report(spec, writer.recovery());
    for (String change : writer.settingChanges()) {
      spec.commandLine().getErr().println("hpf: " + target + ": " + change);
    }
    return writer;
  }

  /** Options of these flags; codec and groups are the archive's unless set on the builder. */
  WriterOptions.Builder builder() {
    WriterOptions.Builder b = WriterOptions.builder();
    if (bucketCapacity != null) {
      b.bucketCapacity(bucketCapacity);
    }
    return b.maxPartBytes(partSize.bytes())
        .breakLock(breakLock)
        .maxSegments(maxSegments)
        .reclaimRatio(reclaimRatio)
        .gracePeriodMillis(graceSeconds * 1000);
  }
}
