package io.hpf.cli;

import io.hpf.archive.WriterOptions;
import io.hpf.format.Codec;
import io.hpf.pack.PackOptions;
import picocli.CommandLine.Option;

/** How files are packed, shared by the commands that pack (a picocli mixin). */
final class PackFlags {
  @Option(
      names = "--codec",
      paramLabel = "CODEC",
      defaultValue = "zstd",
      description =
          "none, lz4 or zstd (default: ${DEFAULT-VALUE}; zstd uses a trained dictionary). Entries"
              + " that do not shrink are stored raw.")
  String codec;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Worker threads (default: number of cores).")
  Integer threads;

  @Option(names = "--follow-symlinks", description = "Follow symbolic links (a loop is an error).")
  boolean followSymlinks;

  @Option(
      names = "--skip-unreadable",
      description = "Skip files that cannot be read and list them at the end, instead of failing.")
  boolean skipUnreadable;

  @Option(
      names = "--group-size",
      paramLabel = "BYTES",
      defaultValue = "2048",
      description =
          "Store small files together in compressed groups of about this many bytes (default:"
              + " ${DEFAULT-VALUE}; 0: every file on its own; at most 262144). Larger groups make"
              + " archives of tiny files smaller and random reads of them slower. With --codec"
              + " none, no groups.")
  int groupBytes;

  @Option(
      names = "--group-max",
      paramLabel = "BYTES",
      defaultValue = "512",
      description = "Files up to this size go into groups (default: ${DEFAULT-VALUE}).")
  int groupEntryMaxBytes;

  /** The writer options these flags set, on top of {@code builder}. */
  WriterOptions.Builder apply(WriterOptions.Builder builder) {
    return builder.codec(codec()).groups(groupBytes, Math.min(groupEntryMaxBytes, groupBytes));
  }

  Codec codec() {
    return Codec.parse(codec);
  }

  /** The pack options; {@code trainDictionary} only where a new dictionary can be stored. */
  PackOptions options(boolean trainDictionary) {
    return new PackOptions(
        threads == null ? Runtime.getRuntime().availableProcessors() : threads,
        followSymlinks,
        skipUnreadable,
        trainDictionary);
  }
}
