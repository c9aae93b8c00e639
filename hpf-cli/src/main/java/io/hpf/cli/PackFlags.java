package io.hpf.cli;

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
